! Fortran ring (expect.py "fring"): r -> r+1 200 double precision by mpi_send,
! mpi_isend of 7 integers to r-1, an mpi_allreduce of 4 double precision and
! an mpi_allgather with MPI_IN_PLACE of 3 integers per rank.
program fring
  use mpi
  implicit none
  integer :: ierr, p, r, nxt, prv, req, k
  integer :: status(MPI_STATUS_SIZE)
  double precision :: a(200), b(200), s(4), t(4)
  integer :: ia(7), ib(7)
  integer, allocatable :: g(:)
  call mpi_init(ierr)
  call mpi_comm_size(MPI_COMM_WORLD, p, ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, r, ierr)
  nxt = mod(r + 1, p)
  prv = mod(r - 1 + p, p)
  a = r
  ia = r * 2
  call mpi_irecv(ib, 7, MPI_INTEGER, nxt, 2, MPI_COMM_WORLD, req, ierr)
  call mpi_isend(ia, 7, MPI_INTEGER, prv, 2, MPI_COMM_WORLD, k, ierr)
  if (mod(r, 2) == 0) then
    call mpi_send(a, 200, MPI_DOUBLE_PRECISION, nxt, 1, MPI_COMM_WORLD, ierr)
    call mpi_recv(b, 200, MPI_DOUBLE_PRECISION, prv, 1, MPI_COMM_WORLD, status, ierr)
  else
    call mpi_recv(b, 200, MPI_DOUBLE_PRECISION, prv, 1, MPI_COMM_WORLD, status, ierr)
    call mpi_send(a, 200, MPI_DOUBLE_PRECISION, nxt, 1, MPI_COMM_WORLD, ierr)
  end if
  call mpi_wait(req, status, ierr)
  call mpi_wait(k, status, ierr)
  s = r + 1
  call mpi_allreduce(s, t, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  allocate(g(3 * p))
  g = 0
  g(3 * r + 1 : 3 * r + 3) = r
  call mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,f0.1)', 'rank ', r, ' checksum ', sum(b) + sum(t) + sum(ib) + sum(g)
  call mpi_finalize(ierr)
end program fring
