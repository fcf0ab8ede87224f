# The handout build (scripts/make_handout.sh, docs/students.md). A handout
# holds the student slots but none of the suite's GPU implementations;
# saxpy and render then build their slot's not_handed_out.cpp in their
# place (the scan library loses the suite's algorithms to make_handout.sh's
# suite-only cut instead), and the course's own names (render -r cuda,
# cudaScan's and cudaSaxpy's defaults) select the slots. make_handout.sh leaves a .handout file at the top of the
# tree, so a handout builds this way with the ordinary presets.
if(EXISTS ${PROJECT_SOURCE_DIR}/.handout)
  set(suite_handout_default ON)
else()
  set(suite_handout_default OFF)
endif()
option(SUITE_HANDOUT "Build as a student handout: slots only, no suite GPU code" ${suite_handout_default})
