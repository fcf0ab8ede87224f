# Configures SOURCE_DIR into a fresh BINARY_DIR for ARCHITECTURES (with
# GENERATOR and MAKE_PROGRAM) and passes when configure fails with the
# architecture check's line.
file(REMOVE_RECURSE "${BINARY_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${GENERATOR}"
                        "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}"
                        "-DCMAKE_CUDA_ARCHITECTURES=${ARCHITECTURES}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
file(REMOVE_RECURSE "${BINARY_DIR}")
if(result EQUAL 0)
  message(FATAL_ERROR "configure for ${ARCHITECTURES} succeeded; it should have stopped")
endif()
# CMake wraps the message's lines.
string(REGEX REPLACE "[ \n]+" " " flat "${errors}")
if(NOT flat MATCHES "names sm_${ARCHITECTURES}: this suite supports sm_75 \\(Turing\\) and newer")
  message(FATAL_ERROR "configure for ${ARCHITECTURES} stopped without the architecture line:\n${errors}")
endif()
