// The course's mode: run one test, time it as the course does, check it.
#pragma once

#include "options.h"

namespace scan_app {

// Prints the device banner, the course's timing line and its verdict line.
// Returns 0 when every result matched the serial reference, 1 otherwise.
int run_check(const Options& opt);

} // namespace scan_app
