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

# giflib (5 or newer) writes render's animated GIFs; Debian ships it in
# libgif-dev. To use another copy, point GIF_INCLUDE_DIR at the folder
# holding gif_lib.h and GIF_LIBRARY at the library (libgif.a links it into
# the programs, so they need no libgif at run time).
# Hints given by hand are not searched, so check them here rather than fail
# later (FindGIF reads the header unchecked).
if(GIF_INCLUDE_DIR AND NOT EXISTS "${GIF_INCLUDE_DIR}/gif_lib.h")
  message(FATAL_ERROR "GIF_INCLUDE_DIR=${GIF_INCLUDE_DIR} holds no gif_lib.h")
endif()
if(GIF_LIBRARY AND NOT EXISTS "${GIF_LIBRARY}")
  message(FATAL_ERROR "GIF_LIBRARY=${GIF_LIBRARY} does not exist")
endif()
find_package(GIF 5 QUIET)
if(NOT GIF_FOUND)
  message(FATAL_ERROR "giflib 5 or newer not found: install libgif-dev (apt-get install libgif-dev), "
                      "or pass -DGIF_INCLUDE_DIR=/folder/holding/gif_lib.h "
                      "-DGIF_LIBRARY=/path/to/libgif.a")
endif()

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
