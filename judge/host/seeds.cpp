#include "judge/seeds.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace judge {

namespace {

constexpr std::size_t kMinSecretBytes = 16;

std::vector<std::uint32_t> words_of(const std::string& bytes) {
  std::vector<std::uint32_t> words;
  for (std::size_t i = 0; i < bytes.size(); i += 4) {
    std::uint32_t w = 0;
    for (std::size_t j = 0; j < 4 && i + j < bytes.size(); ++j)
      w |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + j])) << (8 * j);
    words.push_back(w);
  }
  return words;
}

} // namespace

std::string read_secret(const std::string& path) {
  if (path.empty()) {
    std::random_device entropy;
    std::string secret;
    for (int i = 0; i < 8; ++i) {
      const std::uint32_t w = entropy();
      secret.append(reinterpret_cast<const char*>(&w), sizeof w);
    }
    return secret;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("--secret-file: cannot read " + path);
  std::string secret((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (secret.size() < kMinSecretBytes)
    throw std::runtime_error("--secret-file: " + path + " holds fewer than " +
                             std::to_string(kMinSecretBytes) + " bytes");
  return secret;
}

std::mt19937_64 input_seeds(const std::string& secret, std::uint64_t seed) {
  std::vector<std::uint32_t> words = words_of(secret);
  words.push_back(static_cast<std::uint32_t>(seed));
  words.push_back(static_cast<std::uint32_t>(seed >> 32));
  if (seed == 0) {
    std::random_device entropy;
    for (int i = 0; i < 4; ++i) words.push_back(entropy());
  }
  std::seed_seq sequence(words.begin(), words.end());
  return std::mt19937_64(sequence);
}

std::string fingerprint(const std::string& secret, std::uint64_t a, std::uint64_t b) {
  std::vector<std::uint32_t> words = words_of(secret);
  for (std::uint64_t v : {a, b}) {
    words.push_back(static_cast<std::uint32_t>(v));
    words.push_back(static_cast<std::uint32_t>(v >> 32));
  }
  words.push_back(0x66707274); // "fprt": not a seed of any input
  std::seed_seq sequence(words.begin(), words.end());
  std::uint32_t out[2];
  sequence.generate(out, out + 2);
  char text[17];
  std::snprintf(text, sizeof text, "%08x%08x", out[0], out[1]);
  return text;
}

} // namespace judge
