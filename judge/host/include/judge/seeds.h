// Where a judge's inputs come from: a stream of seeds drawn from the
// grader's secret and the grade's seed together. The seed is no secret (it
// sits on command lines, in scripts, in a course's instructions), so a worker
// that knew the rule could draw every input ahead of its call; the secret is
// kept where no worker looks (its file lies outside the sandbox's view), and
// the grader who keeps it reproduces a grade's inputs from the two.
#pragma once

#include <cstdint>
#include <fstream>
#include <random>
#include <string>

namespace judge {

// The secret in the file `path` (its bytes, at least 16), or, for an empty
// path, one drawn from the system's entropy (so nothing reproduces the
// inputs). Throws std::runtime_error naming the problem.
std::string read_secret(const std::string& path);

// The seeds of the inputs of one row. `seed` 0 mixes fresh entropy in too.
std::mt19937_64 input_seeds(const std::string& secret, std::uint64_t seed);

// A short printable fingerprint of one input's seeds, for the logs: the
// same inputs give the same fingerprint, without giving the seeds away.
std::string fingerprint(const std::string& secret, std::uint64_t a, std::uint64_t b);

// A row's inputs, one fingerprint a line in the file `path` (in the
// worker's log folder, which it never sees): a regrade with the same seed
// and secret writes the same lines.
class InputLog {
public:
  InputLog(const std::string& path, const std::string& secret) : out_(path), secret_(secret) {}
  void add(std::uint64_t seed, std::uint64_t n) { out_ << fingerprint(secret_, seed, n) << "\n"; }

private:
  std::ofstream out_;
  const std::string& secret_;
};

} // namespace judge
