#include "scan/inputs.h"

#include <cstdlib>

#include "common/enum_names.h"

namespace scan {

namespace {
constexpr common::NamedValue<InputKind> kInputNames[] = {
    {InputKind::kOnes, "ones"},   {InputKind::kRandom, "random"},
    {InputKind::kZeros, "zeros"}, {InputKind::kAlternating, "alternating"},
    {InputKind::kEqual, "equal"}, {InputKind::kAscending, "ascending"},
    {InputKind::kWide, "wide"}};
} // namespace

const char* input_name(InputKind kind) {
  return common::enum_name(kInputNames, kind);
}

std::vector<InputKind> all_inputs() {
  std::vector<InputKind> all;
  for (const auto& entry : kInputNames) all.push_back(entry.value);
  return all;
}

std::string input_names() {
  return common::enum_names(kInputNames);
}

std::optional<InputKind> find_input(const std::string& name) {
  return common::enum_from_name(kInputNames, name);
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
