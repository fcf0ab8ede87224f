// The honest computations the exploit workers fall back on (host memory).
#pragma once

namespace honest {

inline void scan(const int* input, int n, int* result) {
  unsigned sum = 0;
  for (int i = 0; i < n; ++i) {
    result[i] = static_cast<int>(sum);
    sum += static_cast<unsigned>(input[i]);
  }
}

inline int find_repeats(const int* input, int n, int* output) {
  int count = 0;
  for (int i = 0; i + 1 < n; ++i)
    if (input[i] == input[i + 1]) output[count++] = i;
  return count;
}

} // namespace honest

// An exploit whose attack either works (then it computes the right answer,
// and the judge's row would be ok: the test fails) or is stopped (then it
// does nothing, and the row is rejected). ATTACK() returns whether it worked.
#define SLOT_IF_ATTACK_WORKS(ATTACK)                                                               \
  namespace scan::student {                                                                        \
  void exclusive_scan(const int* input, int n, int* result) {                                      \
    if (ATTACK()) honest::scan(input, n, result);                                                  \
  }                                                                                                \
  int find_repeats(const int* input, int n, int* output) {                                         \
    return ATTACK() ? honest::find_repeats(input, n, output) : 0;                                  \
  }                                                                                                \
  }

// The honest slot, for workers whose mischief lies elsewhere.
#define HONEST_SLOT                                                                                \
  namespace scan::student {                                                                        \
  void exclusive_scan(const int* input, int n, int* result) {                                      \
    honest::scan(input, n, result);                                                                \
  }                                                                                                \
  int find_repeats(const int* input, int n, int* output) {                                         \
    return honest::find_repeats(input, n, output);                                                 \
  }                                                                                                \
  }

// A slot whose both calls only run ACTION() (and find no repeats).
#define SLOT_ONLY_RUNS(ACTION)                                                                     \
  namespace scan::student {                                                                        \
  void exclusive_scan(const int*, int, int*) {                                                     \
    ACTION();                                                                                      \
  }                                                                                                \
  int find_repeats(const int*, int, int*) {                                                        \
    ACTION();                                                                                      \
    return 0;                                                                                      \
  }                                                                                                \
  }
