#pragma once
// One table of names per enumeration, read both ways: a value's name (toString) and the value a
// word names (parse), with one wording for a word that names nothing:
//
//   <what> '<word>': expected a, b or c
//
// A table lists every value under its name; a value's first entry is its name, later entries for
// the same value are aliases that parse accepts without listing them. Header-only, constexpr, no
// allocation on the name path (toString runs in the frame loop's logging and trace labels).

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cineflow::base {

template <class E>
struct Named {
  E value;
  const char* name;
};

// The name of `value` (its first entry in `table`), or `fallback` where the table lacks it.
template <class E, std::size_t N>
constexpr const char* nameIn(const Named<E> (&table)[N], E value,
                             const char* fallback = "unknown") noexcept {
  for (const Named<E>& entry : table) {
    if (entry.value == value) {
      return entry.name;
    }
  }
  return fallback;
}

// "a, b or c": each value's name once, in the table's order (aliases left out).
template <class E, std::size_t N>
std::string namesIn(const Named<E> (&table)[N]) {
  std::string names;
  std::size_t listed = 0, count = 0;
  for (std::size_t i = 0; i < N; ++i) {
    count += nameIn(table, table[i].value) == table[i].name ? 1 : 0;
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (nameIn(table, table[i].value) != table[i].name) {
      continue;  // an alias
    }
    if (listed > 0) {
      names += listed + 1 == count ? " or " : ", ";
    }
    names += table[i].name;
    ++listed;
  }
  return names;
}

// The value `word` names (a name or an alias); else std::invalid_argument in the one wording
// above, `what` saying what was asked for ("overflow policy", "wall filter").
template <class E, std::size_t N>
E parseIn(const Named<E> (&table)[N], std::string_view word, std::string_view what) {
  for (const Named<E>& entry : table) {
    if (word == entry.name) {
      return entry.value;
    }
  }
  throw std::invalid_argument(std::string(what) + " '" + std::string(word) + "': expected " +
                              namesIn(table));
}

}  // namespace cineflow::base
