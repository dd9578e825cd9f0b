/* libtofaprof: Fortran entry points for Open MPI. Open MPI's mpif.h / "use mpi"
 * bindings (libmpi_mpifh) call PMPI_* directly, so the C wrappers never see
 * Fortran traffic; these shims record it and then call Open MPI's own
 * pmpi_*_ Fortran binding with the arguments untouched. MPICH's Fortran
 * bindings call the C MPI_* functions, so this file is empty there.
 * Covered: gfortran's lower-case, one-underscore names of the calls listed
 * below ("use mpi_f08" is not covered). */
#include "tofaprof.h"

#ifdef OPEN_MPI

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "count arrays are passed through as int");

extern int mpi_fortran_in_place_;
#define F_IN_PLACE(buf) ((void *)(buf) == (void *)&mpi_fortran_in_place_)
#define COMM(f) PMPI_Comm_f2c(*(f))
#define TYPE(f) PMPI_Type_f2c(*(f))
#define F MPI_Fint *

#define DECLARE(name, params) extern void pmpi_##name##_ params __attribute__((weak));

/* Defines mpi_NAME_ that records with RECORD and forwards ARGS to pmpi_NAME_. */
#define SHIM(name, params, args, record) \
  DECLARE(name, params)                  \
  void mpi_##name##_ params;             \
  void mpi_##name##_ params {            \
    record;                              \
    pmpi_##name##_ args;                 \
  }

DECLARE(init, (F ierr))
void mpi_init_(F ierr);
void mpi_init_(F ierr) {
  pmpi_init_(ierr);
  if (*ierr == MPI_SUCCESS) tp_setup();
}

DECLARE(init_thread, (F required, F provided, F ierr))
void mpi_init_thread_(F required, F provided, F ierr);
void mpi_init_thread_(F required, F provided, F ierr) {
  pmpi_init_thread_(required, provided, ierr);
  if (*ierr == MPI_SUCCESS) tp_setup();
}

SHIM(finalize, (F ierr), (ierr), tp_teardown())

#define SEND_PARAMS (void *buf, F count, F type, F dest, F tag, F comm, F ierr)
#define SEND_ARGS (buf, count, type, dest, tag, comm, ierr)
#define SEND_RECORD tp_p2p(COMM(comm), *dest, *count, TYPE(type))
SHIM(send, SEND_PARAMS, SEND_ARGS, SEND_RECORD)
SHIM(bsend, SEND_PARAMS, SEND_ARGS, SEND_RECORD)
SHIM(ssend, SEND_PARAMS, SEND_ARGS, SEND_RECORD)
SHIM(rsend, SEND_PARAMS, SEND_ARGS, SEND_RECORD)

#define ISEND_PARAMS (void *buf, F count, F type, F dest, F tag, F comm, F req, F ierr)
#define ISEND_ARGS (buf, count, type, dest, tag, comm, req, ierr)
SHIM(isend, ISEND_PARAMS, ISEND_ARGS, SEND_RECORD)
SHIM(ibsend, ISEND_PARAMS, ISEND_ARGS, SEND_RECORD)
SHIM(issend, ISEND_PARAMS, ISEND_ARGS, SEND_RECORD)
SHIM(irsend, ISEND_PARAMS, ISEND_ARGS, SEND_RECORD)

#define PERSISTENT(name)                                                           \
  DECLARE(name, ISEND_PARAMS)                                                      \
  void mpi_##name##_ ISEND_PARAMS;                                                 \
  void mpi_##name##_ ISEND_PARAMS {                                                \
    pmpi_##name##_ ISEND_ARGS;                                                     \
    if (*ierr == MPI_SUCCESS)                                                      \
      tp_persistent_add(PMPI_Request_f2c(*req), COMM(comm), *dest, *count, TYPE(type)); \
  }
PERSISTENT(send_init)
PERSISTENT(bsend_init)
PERSISTENT(ssend_init)
PERSISTENT(rsend_init)

SHIM(start, (F req, F ierr), (req, ierr), tp_persistent_start(PMPI_Request_f2c(*req)))
SHIM(startall, (F n, F reqs, F ierr), (n, reqs, ierr),
     for (int i = 0; i < *n; ++i) tp_persistent_start(PMPI_Request_f2c(reqs[i])))
SHIM(request_free, (F req, F ierr), (req, ierr), tp_persistent_remove(PMPI_Request_f2c(*req)))

SHIM(sendrecv,
     (void *sbuf, F scount, F stype, F dest, F stag, void *rbuf, F rcount, F rtype, F source,
      F rtag, F comm, F status, F ierr),
     (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status, ierr),
     tp_p2p(COMM(comm), *dest, *scount, TYPE(stype)))
SHIM(sendrecv_replace,
     (void *buf, F count, F type, F dest, F stag, F source, F rtag, F comm, F status, F ierr),
     (buf, count, type, dest, stag, source, rtag, comm, status, ierr),
     tp_p2p(COMM(comm), *dest, *count, TYPE(type)))

SHIM(barrier, (F comm, F ierr), (comm, ierr), tp_coll_barrier(COMM(comm)))
SHIM(ibarrier, (F comm, F req, F ierr), (comm, req, ierr), tp_coll_barrier(COMM(comm)))
SHIM(bcast, (void *buf, F count, F type, F root, F comm, F ierr),
     (buf, count, type, root, comm, ierr), tp_coll_bcast(COMM(comm), *count, TYPE(type), *root))
SHIM(ibcast, (void *buf, F count, F type, F root, F comm, F req, F ierr),
     (buf, count, type, root, comm, req, ierr),
     tp_coll_bcast(COMM(comm), *count, TYPE(type), *root))
SHIM(reduce, (void *sbuf, void *rbuf, F count, F type, F op, F root, F comm, F ierr),
     (sbuf, rbuf, count, type, op, root, comm, ierr),
     tp_coll_reduce(COMM(comm), *count, TYPE(type), *root))
SHIM(allreduce, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr),
     (sbuf, rbuf, count, type, op, comm, ierr), tp_coll_allreduce(COMM(comm), *count, TYPE(type)))
SHIM(iallreduce, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F req, F ierr),
     (sbuf, rbuf, count, type, op, comm, req, ierr),
     tp_coll_allreduce(COMM(comm), *count, TYPE(type)))
SHIM(scan, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr),
     (sbuf, rbuf, count, type, op, comm, ierr), tp_coll_scan(COMM(comm), *count, TYPE(type)))
SHIM(exscan, (void *sbuf, void *rbuf, F count, F type, F op, F comm, F ierr),
     (sbuf, rbuf, count, type, op, comm, ierr), tp_coll_scan(COMM(comm), *count, TYPE(type)))
SHIM(allgather,
     (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F ierr),
     (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr),
     tp_coll_allgather(COMM(comm), F_IN_PLACE(sbuf), *scount, TYPE(stype), *rcount, TYPE(rtype)))
SHIM(allgatherv,
     (void *sbuf, F scount, F stype, void *rbuf, F rcounts, F displs, F rtype, F comm, F ierr),
     (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierr),
     tp_coll_allgatherv(COMM(comm), rcounts, TYPE(rtype)))
SHIM(alltoall,
     (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, F ierr),
     (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr),
     tp_coll_alltoall(COMM(comm), F_IN_PLACE(sbuf), *scount, TYPE(stype), *rcount, TYPE(rtype)))
SHIM(alltoallv,
     (void *sbuf, F scounts, F sdispls, F stype, void *rbuf, F rcounts, F rdispls, F rtype,
      F comm, F ierr),
     (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierr),
     tp_coll_alltoallv(COMM(comm), F_IN_PLACE(sbuf), scounts, TYPE(stype), rcounts,
                       TYPE(rtype)))
SHIM(gather,
     (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F root, F comm, F ierr),
     (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr),
     tp_coll_gather(COMM(comm), F_IN_PLACE(sbuf), *scount, TYPE(stype), *root))
SHIM(gatherv,
     (void *sbuf, F scount, F stype, void *rbuf, F rcounts, F displs, F rtype, F root, F comm,
      F ierr),
     (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierr),
     tp_coll_gather(COMM(comm), F_IN_PLACE(sbuf), *scount, TYPE(stype), *root))
SHIM(scatter,
     (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F root, F comm, F ierr),
     (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr),
     tp_coll_scatter(COMM(comm), *scount, TYPE(stype), *root))
SHIM(scatterv,
     (void *sbuf, F scounts, F displs, F stype, void *rbuf, F rcount, F rtype, F root, F comm,
      F ierr),
     (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierr),
     tp_coll_scatterv(COMM(comm), scounts, TYPE(stype), *root))
SHIM(reduce_scatter, (void *sbuf, void *rbuf, F rcounts, F type, F op, F comm, F ierr),
     (sbuf, rbuf, rcounts, type, op, comm, ierr),
     tp_coll_reduce_scatter(COMM(comm), rcounts, TYPE(type)))
SHIM(reduce_scatter_block, (void *sbuf, void *rbuf, F rcount, F type, F op, F comm, F ierr),
     (sbuf, rbuf, rcount, type, op, comm, ierr),
     tp_coll_reduce_scatter_block(COMM(comm), *rcount, TYPE(type)))

#define RMA_PARAMS \
  (void *obuf, F ocount, F otype, F target, MPI_Aint *disp, F tcount, F ttype, F win, F ierr)
#define RMA_ARGS (obuf, ocount, otype, target, disp, tcount, ttype, win, ierr)
SHIM(put, RMA_PARAMS, RMA_ARGS, tp_rma_put(PMPI_Win_f2c(*win), *target, *ocount, TYPE(otype)))
SHIM(get, RMA_PARAMS, RMA_ARGS, tp_rma_get(PMPI_Win_f2c(*win), *target, *ocount, TYPE(otype)))
SHIM(accumulate,
     (void *obuf, F ocount, F otype, F target, MPI_Aint *disp, F tcount, F ttype, F op, F win,
      F ierr),
     (obuf, ocount, otype, target, disp, tcount, ttype, op, win, ierr),
     tp_rma_put(PMPI_Win_f2c(*win), *target, *ocount, TYPE(otype)))

#else
typedef int tofaprof_no_fortran_shims; /* ISO C wants a non-empty file */
#endif /* OPEN_MPI */
