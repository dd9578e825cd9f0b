! Fortran neighbourhood collectives on 6 ranks (run_tests.sh "fneighbor"
! holds the expected matrices): a 3x2 periodic Cartesian communicator on
! MPI_COMM_WORLD (no reorder), send blocks -x, +x, -y, +y:
! mpi_neighbor_alltoall 2 integer, mpi_ineighbor_alltoall 3 double precision,
! mpi_neighbor_allgather 1 double precision, mpi_neighbor_allgatherv
! 5 integer, mpi_neighbor_alltoallv {1, 3, 2, 2} integer and
! mpi_neighbor_alltoallw {1 double precision, 1 integer, 1 integer, 1 integer}.
program fneighbor
  use mpi
  implicit none
  integer :: ierr, p, r, cart, req, k
  integer :: dims(2), si(16), ri(20), scounts(4), rcounts(4), sdispls(4), rdispls(4)
  integer :: wcounts(4), stypes(4), rtypes(4)
  integer(kind=MPI_ADDRESS_KIND) :: wdispls(4)
  logical :: periods(2)
  double precision :: sd(12), rd(12), sw(4), rw(4)
  call mpi_init(ierr)
  call mpi_comm_size(MPI_COMM_WORLD, p, ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, r, ierr)
  if (p /= 6) call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  dims = (/ 3, 2 /)
  periods = .true.
  call mpi_cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  do k = 1, 16
    si(k) = r * 100 + k
  end do
  do k = 1, 12
    sd(k) = r + k * 0.5d0
  end do
  rd = 0
  ri = 0
  call mpi_neighbor_alltoall(si, 2, MPI_INTEGER, ri, 2, MPI_INTEGER, cart, ierr)
  call mpi_ineighbor_alltoall(sd, 3, MPI_DOUBLE_PRECISION, rd, 3, MPI_DOUBLE_PRECISION, cart, &
                              req, ierr)
  call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  call mpi_neighbor_allgather(sd, 1, MPI_DOUBLE_PRECISION, rd, 1, MPI_DOUBLE_PRECISION, cart, ierr)
  rcounts = 5
  rdispls = (/ 0, 5, 10, 15 /)
  call mpi_neighbor_allgatherv(si, 5, MPI_INTEGER, ri, rcounts, rdispls, MPI_INTEGER, cart, ierr)
  ! in-neighbour k sent me its block for the opposite direction
  scounts = (/ 1, 3, 2, 2 /)
  sdispls = (/ 0, 1, 4, 6 /)
  rcounts = (/ 3, 1, 2, 2 /)
  rdispls = (/ 0, 3, 4, 6 /)
  call mpi_neighbor_alltoallv(si, scounts, sdispls, MPI_INTEGER, ri, rcounts, rdispls, &
                              MPI_INTEGER, cart, ierr)
  sw = (/ r + 0.25d0, 0d0, 0d0, 0d0 /)
  rw = 0
  wcounts = 1
  wdispls = (/ 0, 8, 16, 24 /)
  stypes = (/ MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_INTEGER, MPI_INTEGER /)
  rtypes = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_INTEGER, MPI_INTEGER /)
  call mpi_neighbor_alltoallw(sw, wcounts, wdispls, stypes, rw, wcounts, wdispls, rtypes, &
                              cart, ierr)
  print '(a,i0,a,f0.2)', 'rank ', r, ' checksum ', sum(rd) + sum(ri(1:8)) + rw(2)
  call mpi_comm_free(cart, ierr)
  call mpi_finalize(ierr)
end program fneighbor
