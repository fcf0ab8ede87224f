#include "common/cli.h"

#include <getopt.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <string>

namespace common {

std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t min,
                       std::int64_t max) {
  const auto range_error = [&] {
    return UsageError(what + ": " + text + " is out of range (allowed: " + std::to_string(min) +
                      " to " + std::to_string(max) + ")");
  };
  std::size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  if (i == text.size()) throw UsageError(what + ": '" + text + "' is not a whole number");
  for (std::size_t k = i; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9')
      throw UsageError(what + ": '" + text + "' is not a whole number");
  errno = 0;
  const long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < min || value > max) throw range_error();
  return value;
}

namespace {

// The long option `word` names (--name or --name=value), or null.
const option* long_option_named(const char* word, const option* long_options) {
  if (std::strncmp(word, "--", 2) != 0) return nullptr;
  const std::string name = std::string(word + 2).substr(0, std::string(word + 2).find('='));
  for (const option* o = long_options; o && o->name; ++o)
    if (name == o->name) return o;
  return nullptr;
}

// Whether getopt_long stopped at the long option in argv[optind - 1] (it
// reports a known one by its val in optopt) rather than at a short option:
// inside a group (-zq) optind has not moved past the group yet, so the word
// before it may be an earlier, valid --name=value.
const option* stopped_long(char** argv, const option* long_options) {
  const option* o = long_option_named(argv[optind - 1], long_options);
  return o && !o->flag && o->val == optopt ? o : nullptr;
}

// The option getopt_long stopped at, as typed: a short one by optopt, a long
// one (unknown: optopt 0) by the word it read.
std::string stopped_at(char** argv, const option* long_options) {
  if (optopt != 0 && !stopped_long(argv, long_options))
    return std::string("-") + static_cast<char>(optopt);
  return argv[optind - 1];
}

} // namespace

bool getopt_asked_help(int code, char** argv) {
  return code == '?' && optopt == 0 && std::strcmp(argv[optind - 1], "-?") == 0;
}

UsageError getopt_usage_error(int code, char** argv, const option* long_options) {
  if (code == ':') return UsageError("option " + stopped_at(argv, long_options) + " needs a value");
  // A known long option given a value it does not take.
  const std::string word = argv[optind - 1];
  const option* o = stopped_long(argv, long_options);
  if (o && o->has_arg == no_argument && word.find('=') != std::string::npos)
    return UsageError(word.substr(0, word.find('=')) + " takes no value");
  return UsageError("unknown option " + stopped_at(argv, long_options));
}

bool getopt_help_or_throw(int code, char** argv, const option* long_options) {
  if (getopt_asked_help(code, argv)) return true;
  throw getopt_usage_error(code, argv, long_options);
}

void reject_operands(int argc, char** argv) {
  if (optind < argc) throw UsageError(std::string("unexpected argument '") + argv[optind] + "'");
}

namespace {

// Flushes standard output and says whether everything printed on it reached
// its destination (a full disk, /dev/full or a closed pipe fail here, or
// earlier, which leaves the stream's error flag set). Empty when it did.
std::string stdout_failure() {
  errno = 0;
  std::cout.flush(); // through stdout's buffer (synced with stdio), so errno tells why
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return {};
  std::string message = "cannot write standard output";
  if (error != 0) message += std::string(": ") + std::strerror(error);
  return message;
}

} // namespace

int run_main(const char* program, const std::function<int()>& body) {
  try {
    const int status = body();
    const std::string failure = stdout_failure();
    if (failure.empty()) return status;
    std::cerr << program << ": error: " << failure << '\n';
    return status != 0 ? status : 1;
  } catch (const UsageError& e) {
    std::cerr << program << ": " << e.what() << " (try --help)\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": error: out of host memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << '\n';
    return 1;
  }
}

} // namespace common
