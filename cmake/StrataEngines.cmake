# Optional engines. Each is on by default; -DSTRATA_ENABLE_<ENGINE>=OFF turns it
# off, and an engine whose dependencies are not installed turns itself off with
# a message saying what is missing, instead of failing the configure step.
# The result is STRATA_HAVE_<ENGINE> (ON or OFF) for the rest of the build.
option(STRATA_ENABLE_TBB "Build the multicore engine (needs oneTBB: libtbb-dev)" ON)
option(STRATA_ENABLE_JIT "Build the LLVM ORC JIT engine (needs LLVM 19: llvm-19-dev, and oneTBB)" ON)
option(STRATA_ENABLE_MPI "Build the distributed engine (needs oneTBB; Open MPI's libopenmpi-dev for mpirun)" ON)
option(STRATA_ENABLE_CUDA "Build the CUDA engine (needs the CUDA toolkit's NVRTC; runs only with a GPU)" ON)

set(STRATA_HAVE_TBB OFF)
set(STRATA_HAVE_JIT OFF)
set(STRATA_HAVE_CUDA OFF)
set(STRATA_HAVE_MPI OFF)
set(STRATA_HAVE_MPI_TRANSPORT OFF)

if(STRATA_ENABLE_TBB)
  find_package(TBB QUIET)
  if(TBB_FOUND)
    set(STRATA_HAVE_TBB ON)
  else()
    message(STATUS "Strata: oneTBB not found (Debian: libtbb-dev): the tbb engine is off")
  endif()
endif()

if(STRATA_ENABLE_JIT)
  # A bare `19` fails LLVM's version check; 19.1 accepts every 19.1.x.
  find_package(LLVM 19.1 CONFIG QUIET HINTS /usr/lib/llvm-19/lib/cmake/llvm)
  if(LLVM_FOUND)
    # llc makes the jit's warm-up object at build time (jit/CMakeLists.txt).
    find_program(STRATA_LLC llc HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
  endif()
  if(NOT STRATA_HAVE_TBB)
    message(STATUS "Strata: the jit engine needs oneTBB (the tbb engine is off): the jit engine is off")
  elseif(NOT LLVM_FOUND)
    message(STATUS "Strata: LLVM 19 not found (Debian: llvm-19-dev libzstd-dev): the jit engine is off")
  elseif(NOT STRATA_LLC)
    message(STATUS "Strata: LLVM 19's llc not found in ${LLVM_TOOLS_BINARY_DIR} (Debian: llvm-19): the jit engine is off")
  else()
    set(STRATA_HAVE_JIT ON)
  endif()
endif()

if(STRATA_ENABLE_CUDA)
  if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND AND TARGET CUDA::nvrtc)
    set(STRATA_HAVE_CUDA ON)
  else()
    message(STATUS "Strata: the CUDA toolkit (NVRTC) not found under /usr/local/cuda or "
                   "CUDAToolkit_ROOT: the cuda engine is off")
  endif()
endif()

if(STRATA_ENABLE_MPI)
  if(NOT STRATA_HAVE_TBB)
    message(STATUS "Strata: the mpi engine runs each rank on tbb or jit (both off): the mpi engine is off")
  else()
    set(STRATA_HAVE_MPI ON)
    # The C API through the C++ compiler (the project enables C++ only);
    # MPI's deprecated C++ bindings are not wanted.
    set(MPI_CXX_SKIP_MPICXX ON)
    find_package(MPI QUIET COMPONENTS CXX)
    if(MPI_CXX_FOUND)
      set(STRATA_HAVE_MPI_TRANSPORT ON)
    else()
      message(STATUS "Strata: MPI not found (Debian: libopenmpi-dev openmpi-bin): the mpi engine "
                     "runs only as threads (mpi:P) and as one process")
    endif()
  endif()
endif()

set(STRATA_ENGINES interp)
foreach(engine TBB JIT CUDA MPI)
  if(STRATA_HAVE_${engine})
    string(TOLOWER ${engine} name)
    list(APPEND STRATA_ENGINES ${name})
  endif()
endforeach()
list(JOIN STRATA_ENGINES " " STRATA_ENGINES_TEXT)
message(STATUS "Strata: engines built: ${STRATA_ENGINES_TEXT}")
