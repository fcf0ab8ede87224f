# Finds what the project needs; each missing piece stops configure with one
# line that names what to install.

# CMake 3.25's FindCUDAToolkit marks CUDA::nvToolsExt deprecated without
# checking that the target exists, so with a toolkit that ships no nvToolsExt
# (CUDA 12.9 and newer) configure stops. The check applies only to projects
# that require 3.25, so hide our minimum from that one call.
set(suite_minimum_version ${CMAKE_MINIMUM_REQUIRED_VERSION})
if(CMAKE_VERSION VERSION_LESS 3.26)
  set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
endif()
find_package(CUDAToolkit QUIET)
set(CMAKE_MINIMUM_REQUIRED_VERSION ${suite_minimum_version})
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR "CUDA Toolkit libraries not found: install the CUDA Toolkit (cudart)")
endif()

# CCCL (Thrust, CUB, libcu++) ships with the toolkit as a CMake package.
find_package(CCCL CONFIG QUIET HINTS "${CUDAToolkit_LIBRARY_DIR}/cmake" "${CUDAToolkit_LIBRARY_ROOT}/lib64/cmake")
if(NOT CCCL_FOUND)
  message(FATAL_ERROR "CCCL (Thrust/CUB) not found: install a CUDA Toolkit that ships lib64/cmake/cccl, "
                      "or set CCCL_DIR")
endif()

# stb_image_write is a single header; Debian ships it in libstb-dev. Point
# STB_INCLUDE_DIR at any folder holding stb_image_write.h to use another copy.
find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb
          HINTS ${PROJECT_SOURCE_DIR}/.deps/stb
          DOC "Folder that holds stb_image_write.h")
if(NOT STB_INCLUDE_DIR)
  message(FATAL_ERROR "stb_image_write.h not found: install libstb-dev (apt-get install libstb-dev), "
                      "or pass -DSTB_INCLUDE_DIR=/folder/holding/the/header")
endif()
# A folder given by hand is not searched, so check it here rather than fail
# later at compile time.
if(NOT EXISTS "${STB_INCLUDE_DIR}/stb_image_write.h")
  message(FATAL_ERROR "STB_INCLUDE_DIR=${STB_INCLUDE_DIR} holds no stb_image_write.h")
endif()
add_library(stb_image_write INTERFACE)
target_include_directories(stb_image_write SYSTEM INTERFACE ${STB_INCLUDE_DIR})

option(BUILD_TESTING "Build the GoogleTest suites" ON)
if(BUILD_TESTING)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    message(FATAL_ERROR "GoogleTest not found: install libgtest-dev (apt-get install libgtest-dev), "
                        "or configure with -DBUILD_TESTING=OFF")
  endif()
endif()

find_package(Threads)
if(NOT Threads_FOUND)
  message(FATAL_ERROR "No thread library found: install the C library's development files "
                      "(apt-get install libc6-dev)")
endif()
