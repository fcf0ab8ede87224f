// Reading scene files. Every problem becomes a SceneFileError naming the
// source and line; nothing is allocated in proportion to a header value.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "scene_file_format.h"
#include "scenes/animation.h"
#include "scenes/scene_file.h"

namespace scenes {

namespace {

using detail::kFieldCount;

// Storage reserved up front is capped: a header may promise 50 million circles
// in a file of ten bytes. Beyond this the arrays grow as circles arrive.
constexpr std::size_t kMaxInitialReserve = std::size_t{1} << 16;

// Splits on spaces and tabs into `words` (reused, so no allocation per line).
void split_words(std::string_view line, std::vector<std::string_view>& words) {
  words.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
}

// Shows a token in a message without flooding it or breaking the line.
std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (const char c : text.substr(0, kShown)) {
    shown += (c >= ' ' && c <= '~') ? c : '?';
  }
  if (text.size() > kShown) shown += "...";
  return "'" + shown + "'";
}

class Reader {
public:
  Reader(std::istream& in, const std::string& source) : in_(in), source_(source) {
    buffer_.resize(kMaxSceneFileLine + 2);
  }

  Scene read() {
    if (!in_) {
      line_number_ = 1;
      fail("the input cannot be read");
    }
    Scene scene;
    read_magic();
    const std::size_t count = read_header(scene);
    read_circles(scene, count);
    read_end(scene.size());
    return scene;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw SceneFileError(source_ + ":" + std::to_string(line_number_) + ": " + what);
  }

  // Reads the next line into line_; false at the end of the input.
  bool next_line() {
    if (in_.eof()) return false;
    in_.getline(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto length = static_cast<std::size_t>(in_.gcount());
    if (in_.bad()) {
      ++line_number_;
      fail(std::string("read error: ") + std::strerror(errno));
    }
    if (in_.fail()) {
      if (length == 0 && in_.eof()) return false; // nothing left
      ++line_number_;
      fail("line longer than " + std::to_string(kMaxSceneFileLine) + " characters");
    }
    ++line_number_;
    // gcount counts the newline that getline consumed but did not store.
    std::size_t stored = in_.eof() ? length : length - 1;
    if (stored > 0 && buffer_[stored - 1] == '\r') --stored; // CRLF files
    if (stored > kMaxSceneFileLine) {
      fail("line longer than " + std::to_string(kMaxSceneFileLine) + " characters");
    }
    line_ = std::string_view(buffer_.data(), stored);
    return true;
  }

  // Next line that is neither blank nor a comment, split into words; empty at
  // the end of the input. The words are valid until the next read.
  const std::vector<std::string_view>& next_content() {
    while (next_line()) {
      split_words(line_, words_);
      if (!words_.empty() && words_[0][0] != '#') return words_;
    }
    words_.clear();
    return words_;
  }

  void read_magic() {
    if (!next_line()) {
      line_number_ = 1;
      fail("empty file; a scene file starts with 'scenefile 1'");
    }
    split_words(line_, words_);
    const std::vector<std::string_view>& words = words_;
    if (words.size() != 2 || words[0] != detail::kMagic) {
      fail("not a scene file: the first line must be 'scenefile 1'");
    }
    if (words[1] != detail::kVersion) {
      fail("scene file version " + quoted(words[1]) + " is not supported (this reader reads 1)");
    }
  }

  std::string_view single_value(const std::vector<std::string_view>& words) const {
    if (words.size() != 2) {
      fail("'" + std::string(words[0]) + "' takes exactly one value, found " +
           std::to_string(words.size() - 1));
    }
    return words[1];
  }

  // Reads the keyword lines up to and including 'circles N'; returns N.
  std::size_t read_header(Scene& scene) {
    bool have_name = false, have_animation = false, have_snow = false;
    for (;;) {
      const std::vector<std::string_view>& words = next_content();
      if (words.empty()) fail("file ends in the header, before 'circles'");
      const std::string_view key = words[0];
      const std::string_view value = single_value(words);
      if (key == "name") {
        if (have_name) fail("'name' given twice");
        if (!detail::is_valid_name(value)) {
          fail("scene name " + quoted(value) + " is not 1 to 256 printable characters");
        }
        scene.name = std::string(value);
        have_name = true;
      } else if (key == "animation") {
        if (have_animation) fail("'animation' given twice");
        const std::optional<Animation> animation = detail::parse_animation(value);
        if (!animation) {
          fail("unknown animation " + quoted(value) + "; expected one of " +
               detail::animation_keywords());
        }
        scene.animation = *animation;
        have_animation = true;
      } else if (key == "snow") {
        if (have_snow) fail("'snow' given twice");
        if (value != "true" && value != "false") {
          fail("'snow' must be true or false, not " + quoted(value));
        }
        scene.snow = value == "true";
        have_snow = true;
      } else if (key == "circles") {
        if (!have_name) fail("'name' is missing before 'circles'");
        if (!have_animation) fail("'animation' is missing before 'circles'");
        if (!have_snow) fail("'snow' is missing before 'circles'");
        return parse_count(value, scene.animation);
      } else {
        fail("unknown keyword " + quoted(key) + "; expected name, animation, snow or circles");
      }
    }
  }

  std::size_t parse_count(std::string_view text, Animation animation) const {
    std::uint64_t count = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error == std::errc::result_out_of_range ||
        (error == std::errc() && end == text.data() + text.size() &&
         count > kMaxSceneFileCircles)) {
      fail("circle count " + quoted(text) + " is over the limit of " +
           std::to_string(kMaxSceneFileCircles));
    }
    if (error != std::errc() || end != text.data() + text.size()) {
      fail("circle count " + quoted(text) + " is not a whole number");
    }
    if (animation == Animation::Fireworks && count > kFireworksMaxCircles) {
      fail("a fireworks scene has at most " + std::to_string(kFireworksMaxCircles) +
           " circles, not " + std::to_string(count));
    }
    return static_cast<std::size_t>(count);
  }

  float parse_field(std::string_view text, std::size_t field) const {
    const std::string what =
        "field " + std::to_string(field + 1) + " (" + std::string(detail::kFieldNames[field]) + ")";
    // from_chars takes no leading '+'; people writing files by hand may.
    if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') {
      text.remove_prefix(1);
    }
    float value = 0.0f;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) {
      fail(what + ": " + quoted(text) + " is out of the float range");
    }
    if (error != std::errc() || end != text.data() + text.size()) {
      fail(what + ": " + quoted(text) + " is not a number");
    }
    if (!std::isfinite(value)) fail(what + ": " + quoted(text) + " is not a finite number");
    if (field == detail::kRadiusField && value < 0.0f) {
      fail(what + ": " + quoted(text) + " is negative");
    }
    return value;
  }

  void read_circles(Scene& scene, std::size_t count) {
    const auto fields = detail::circle_fields(scene);
    for (std::vector<float>* array : fields) array->reserve(std::min(count, kMaxInitialReserve));
    for (std::size_t i = 0; i < count; ++i) {
      const std::vector<std::string_view>& words = next_content();
      if (words.empty()) {
        ++line_number_; // the line that should have followed
        fail("file ends after " + std::to_string(i) + " of " + std::to_string(count) + " circles");
      }
      if (words[0] == detail::kEnd) {
        fail("'end' after " + std::to_string(i) + " circles; the header says " +
             std::to_string(count));
      }
      if (words.size() != kFieldCount) {
        fail("a circle line has " + std::to_string(kFieldCount) + " numbers, this one has " +
             std::to_string(words.size()));
      }
      for (std::size_t f = 0; f < kFieldCount; ++f) {
        fields[f]->push_back(parse_field(words[f], f));
      }
    }
  }

  void read_end(std::size_t count) {
    const std::vector<std::string_view>* words = &next_content();
    if (words->empty()) {
      ++line_number_;
      fail("file ends without 'end' (truncated?)");
    }
    if ((*words)[0] != detail::kEnd) {
      if (words->size() == kFieldCount) {
        fail("more circles than the header's " + std::to_string(count));
      }
      fail("expected 'end', found " + quoted((*words)[0]));
    }
    if (words->size() != 1) fail("unexpected text after 'end'");
    words = &next_content();
    if (!words->empty()) fail("unexpected text after 'end': " + quoted((*words)[0]));
  }

  std::istream& in_;
  const std::string& source_;
  std::vector<char> buffer_;
  std::string_view line_; // into buffer_, valid until the next read
  std::vector<std::string_view> words_;
  std::size_t line_number_ = 0;
};

} // namespace

Scene read_scene(std::istream& in, const std::string& source) {
  return Reader(in, source).read();
}

Scene load_scene_file(const std::string& path) {
  // A folder opens like a file on Linux and fails only on reading, and a pipe
  // would wait for a writer for ever: refuse what is not a regular file.
  std::error_code ignored;
  const std::filesystem::file_status status = std::filesystem::status(path, ignored);
  if (std::filesystem::is_directory(status)) {
    throw SceneFileError(path + ": cannot open scene file: " + std::strerror(EISDIR));
  }
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw SceneFileError(path + ": cannot open scene file: not a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw SceneFileError(path + ": cannot open scene file: " + std::strerror(errno));
  }
  return read_scene(in, path);
}

} // namespace scenes
