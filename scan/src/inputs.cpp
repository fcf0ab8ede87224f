#include "scan/inputs.h"

#include <cstdlib>

namespace scan {

const char* input_name(InputKind kind) {
  switch (kind) {
  case InputKind::kOnes:
    return "ones";
  case InputKind::kRandom:
    return "random";
  case InputKind::kZeros:
    return "zeros";
  case InputKind::kAlternating:
    return "alternating";
  case InputKind::kEqual:
    return "equal";
  case InputKind::kAscending:
    return "ascending";
  case InputKind::kWide:
    return "wide";
  }
  return "?";
}

std::vector<InputKind> all_inputs() {
  return {InputKind::kOnes,  InputKind::kRandom,    InputKind::kZeros, InputKind::kAlternating,
          InputKind::kEqual, InputKind::kAscending, InputKind::kWide};
}

std::string input_names() {
  std::string names;
  for (InputKind k : all_inputs())
    names += (names.empty() ? "" : ", ") + std::string(input_name(k));
  return names;
}

std::optional<InputKind> find_input(const std::string& name) {
  for (InputKind k : all_inputs())
    if (name == input_name(k)) return k;
  return std::nullopt;
}

void fill_input(InputKind kind, int* out, std::int64_t n, unsigned seed) {
  switch (kind) {
  case InputKind::kOnes:
  case InputKind::kZeros:
  case InputKind::kEqual: {
    const int value = kind == InputKind::kOnes ? 1 : kind == InputKind::kZeros ? 0 : 7;
    for (std::int64_t i = 0; i < n; ++i) out[i] = value;
    return;
  }
  case InputKind::kAlternating:
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<int>(i & 1);
    return;
  case InputKind::kAscending:
    // Wraps past 2^31 elements; unsigned keeps the conversion defined.
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<int>(static_cast<unsigned>(i));
    return;
  case InputKind::kRandom:
    std::srand(seed);
    for (std::int64_t i = 0; i < n; ++i) out[i] = std::rand() % 10;
    return;
  case InputKind::kWide:
    std::srand(seed);
    for (std::int64_t i = 0; i < n; ++i) out[i] = std::rand();
    return;
  }
}

} // namespace scan
