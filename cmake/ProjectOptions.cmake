# One interface target carries what every target of the project asks of the
# compilers, the language standard and the warning flags, so no global flags
# are set: each target links project_options.
add_library(project_options INTERFACE)
target_compile_features(project_options INTERFACE cxx_std_17 cuda_std_17)
target_compile_options(project_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  # Line numbers in all device code, so Nsight Compute's source view and
  # compute-sanitizer's reports name lines (in the students' files too); it
  # changes no generated instruction.
  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
