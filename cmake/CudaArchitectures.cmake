# Which GPU architectures device code is built for. Included before
# enable_language(CUDA), so that an unsupported choice stops configure with one
# line instead of a failed compiler check, and so that a build without a
# choice gets the fat binary below rather than nvcc's single default.
#
# Supported: sm_75 (Turing, the course's T4) and newer. The default is one
# binary for every common GPU: machine code for Turing (T4), Ampere (A100,
# RTX 30), Ada (RTX 40), Hopper (H100, H200) and Blackwell (B200, RTX 50), plus
# PTX for GPUs newer than all of them (the driver compiles it at load).
# `native` builds for the GPUs of this machine only (faster to build);
# any list CMake accepts works, e.g. -DCMAKE_CUDA_ARCHITECTURES="75;90".

set(SUITE_OLDEST_CUDA_ARCHITECTURE 75)
set(SUITE_FAT_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120-real 120-virtual)

# Stops configure when a list names an architecture older than sm_75.
function(suite_check_cuda_architectures architectures)
  foreach(arch IN LISTS architectures)
    if(arch MATCHES "^([0-9]+)[a-z]?(-real|-virtual)?$" AND CMAKE_MATCH_1 LESS SUITE_OLDEST_CUDA_ARCHITECTURE)
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES names sm_${CMAKE_MATCH_1}: this suite supports "
                          "sm_75 (Turing) and newer (75, 80, 86, 89, 90, 100, 120 or native)")
    endif()
  endforeach()
endfunction()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES "${SUITE_FAT_CUDA_ARCHITECTURES}"
      CACHE STRING "GPU architectures to build device code for (sm_75 and newer)")
endif()
if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  suite_check_cuda_architectures("${CMAKE_CUDA_ARCHITECTURES}")
else()
  suite_check_cuda_architectures("$ENV{CUDAARCHS}")
endif()
