// The names of an enum's values, kept in one table per enum: the name of a
// value, the value of a name, and the names joined for messages and --help.
// The table's order is the order in which --help and error messages list
// them. Host code; needs no CUDA compiler.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace common {

template <class E> struct NamedValue {
  E value;
  const char* name;
};

// The name of `value` in `table`, or `missing` when the table lacks it.
template <class E, std::size_t N>
constexpr const char* enum_name(const NamedValue<E> (&table)[N], E value,
                                const char* missing = "?") {
  for (const NamedValue<E>& entry : table)
    if (entry.value == value) return entry.name;
  return missing;
}

// The value named `name` in `table`; nothing when no entry has that name.
template <class E, std::size_t N>
std::optional<E> enum_from_name(const NamedValue<E> (&table)[N], std::string_view name) {
  for (const NamedValue<E>& entry : table)
    if (name == entry.name) return entry.value;
  return std::nullopt;
}

// Every name of `table`, in its order, joined by `separator`.
template <class E, std::size_t N>
std::string enum_names(const NamedValue<E> (&table)[N], std::string_view separator = ", ") {
  std::string names;
  for (const NamedValue<E>& entry : table) {
    if (!names.empty()) names += separator;
    names += entry.name;
  }
  return names;
}

} // namespace common
