// What every program's main needs: parsing numbers from options with range
// checks, a usage-error type, and one place that turns exceptions into a clear
// message and an exit status.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

struct option; // <getopt.h>

namespace common {

// Bad command-line input. Programs exit with status 2 on it.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Parses a whole decimal integer in [min, max] (an optional leading '+' or '-',
// digits, nothing else). `what` names the option in the message, e.g.
// "-n/--arraysize: 'abc' is not a whole number".
std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t min,
                       std::int64_t max);

// For programs that parse with getopt_long (opterr = 0, an optstring that
// starts with ':'), once it has returned '?' or ':' (`code`). True when that
// was the help request "-?".
bool getopt_asked_help(int code, char** argv);
// Otherwise what went wrong, naming the option as typed: "-z" also from inside
// a group such as -zq, or the long option ("unknown option --bogus", "option
// -n needs a value", "--bench takes no value"). `long_options`: the table
// given to getopt_long.
UsageError getopt_usage_error(int code, char** argv, const ::option* long_options);
// The two together, for a getopt_long loop's default case: true when `code`
// was "-?"; otherwise throws getopt_usage_error's error.
bool getopt_help_or_throw(int code, char** argv, const ::option* long_options);
// After a getopt_long loop of a program that takes no operands: throws
// "unexpected argument 'X'" for the first word it left (argv[optind]).
void reject_operands(int argc, char** argv);

// Runs a program body. UsageError: "PROGRAM: message" and a hint to use --help,
// status 2. Any other exception (CUDA failures, I/O, out of memory): "PROGRAM:
// error: message", status 1. Otherwise the body's own status, once standard
// output (std::cout and stdout) is flushed: output that could not be written
// (a full disk, /dev/full) is "PROGRAM: error: cannot write standard output:
// REASON" and status 1, so help and lists are covered too.
int run_main(const char* program, const std::function<int()>& body);

} // namespace common
