# The CUDA renderer's sources and settings; render/CMakeLists.txt includes
# this file once render_lib exists.
target_sources(render_lib PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cuda_binned.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_binning.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_frame.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_renderer.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_tiled.cu
  # The design ladder, one small kernel file per rung (docs/ladder.md).
  ${CMAKE_CURRENT_LIST_DIR}/ladder/cuda_circles.cu
  ${CMAKE_CURRENT_LIST_DIR}/ladder/cuda_pixels.cu
  ${CMAKE_CURRENT_LIST_DIR}/ladder/cuda_tiles.cu
  ${CMAKE_CURRENT_LIST_DIR}/ladder/cuda_classic.cu)
# CUB's scan and radix sort.
target_link_libraries(render_lib PRIVATE CCCL::CCCL)
# Device arithmetic must round as the host's does: nvcc may not contract
# a*b + c anywhere in these sources (the shading helpers also use the _rn
# intrinsics, which are never contracted).
target_compile_options(render_lib PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
