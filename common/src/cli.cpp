#include "common/cli.h"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <new>

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

int run_main(const char* program, const std::function<int()>& body) {
  try {
    return body();
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
