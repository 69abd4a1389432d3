#!/usr/bin/env bash
# How every MPI test starts its processes (one place for what this kind of machine needs).
#   tests/mpi/mpirun.sh N PROGRAM [ARGS...]   runs PROGRAM on N ranks of this machine
#   tests/mpi/mpirun.sh --available           exits 0 when mpirun exists, 77 (ctest: skipped) otherwise
# Without mpirun both forms exit 77, which the MPI tests pass on as "skipped".
set -euo pipefail
command -v mpirun >/dev/null || { echo "mpirun not found: MPI test skipped"; exit 77; }
[ "$1" = "--available" ] && exit 0
np=$1; shift
# CI and containers run as root, which Open MPI refuses unless told twice.
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# One machine: loopback and shared memory only (no probing of network interfaces), and shared
# memory without the kernel's cross-memory attach, which containers often forbid (ptrace).
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# ASan builds: Open MPI's own blocks from MPI_Init, never freed, are not Articula's leaks
# (tests/mpi/lsan.supp says which and why); the slow unwinder finds their library.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
# More ranks than cores (CI has 2): --oversubscribe, and ranks that yield instead of spinning.
export OMPI_MCA_mpi_yield_when_idle=1
exec mpirun --oversubscribe -np "$np" "$@"
