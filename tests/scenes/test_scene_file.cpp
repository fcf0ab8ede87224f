// Scene files: exact round trips, atomic saves, and one clear
// "SOURCE:LINE: what" error for every kind of malformed input.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "scene_compare.h"
#include "scenes/atomic_file.h"
#include "scenes/scene.h"
#include "scenes/scene_file.h"
#include "temp_dir.h"

namespace {

using scenes::Scene;
using scenes::SceneFileError;

Scene round_trip(const Scene& scene) {
  std::stringstream text;
  scenes::write_scene(scene, text);
  return scenes::read_scene(text, "memory");
}

Scene read_text(const std::string& text) {
  std::istringstream in(text);
  return scenes::read_scene(in, "test.scene");
}

// The message read_text(text) fails with.
std::string error_of(const std::string& text) {
  try {
    read_text(text);
  } catch (const SceneFileError& error) {
    return error.what();
  }
  return "(no error)";
}

const std::string kHeader = "scenefile 1\nname t\nanimation none\nsnow false\n";
const std::string kCircle = "0.5 0.5 0.5 0.1 1 0 0 0 0 0\n";

TEST(SceneFile, EveryGeneratedSceneRoundTripsBitExactly) {
  for (const std::string& name : scenes::scene_names()) {
    if (name == "rand1M" || name == "micro2M") continue; // slow; see below
    const Scene scene = scenes::load_scene(name, 13);
    EXPECT_TRUE(scenes_test::scenes_identical(round_trip(scene), scene)) << name;
  }
}

TEST(SceneFile, AdvancedAnimatedScenesRoundTripBitExactly) {
  for (const char* name : {"bouncingballs", "fireworks", "hypnosis", "snow"}) {
    Scene scene = scenes::load_scene(name);
    for (int frame = 0; frame < 37; ++frame) scenes::advance(scene);
    Scene back = round_trip(scene);
    EXPECT_TRUE(scenes_test::scenes_identical(back, scene)) << name;
    // And they keep moving the same way after loading.
    for (int frame = 0; frame < 5; ++frame) {
      scenes::advance(scene);
      scenes::advance(back);
    }
    EXPECT_TRUE(scenes_test::scenes_identical(back, scene)) << name;
  }
}

TEST(SceneFile, ExtremeFloatsRoundTrip) {
  Scene scene;
  scene.name = "extremes";
  scene.snow = true;
  scene.animation = scenes::Animation::Snow;
  const std::vector<float> values = {0.0f,
                                     -0.0f,
                                     std::numeric_limits<float>::denorm_min(),
                                     -std::numeric_limits<float>::denorm_min(),
                                     std::numeric_limits<float>::min(),
                                     std::numeric_limits<float>::max(),
                                     -std::numeric_limits<float>::max(),
                                     0.1f,
                                     1.0f / 3.0f,
                                     16777217.0f};
  scene.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    scene.x[i] = values[i];
    scene.vz[i] = values[values.size() - 1 - i];
    scene.radius[i] = std::abs(values[i]);
  }
  EXPECT_TRUE(scenes_test::scenes_identical(round_trip(scene), scene));
}

TEST(SceneFile, EmptySceneRoundTrips) {
  Scene scene;
  scene.name = "empty";
  EXPECT_TRUE(scenes_test::scenes_identical(round_trip(scene), scene));
}

TEST(SceneFile, SaveAndLoadOnDiskIncludingTheLargestScene) {
  TempDir folder;
  const Scene scene = scenes::load_scene("micro2M");
  const std::string path = folder.file("micro.scene");
  scenes::save_scene(scene, path);
  EXPECT_TRUE(scenes_test::scenes_identical(scenes::load_scene_file(path), scene));
  EXPECT_EQ(folder.files(), std::vector<std::string>{"micro.scene"}); // no temp left
}

TEST(SceneFile, SaveReplacesAnExistingFile) {
  TempDir folder;
  const std::string path = folder.file("s.scene");
  { std::ofstream(path) << "old contents that are much longer than nothing\n"; }
  const Scene scene = scenes::load_scene("rgb");
  scenes::save_scene(scene, path);
  EXPECT_TRUE(scenes_test::scenes_identical(scenes::load_scene_file(path), scene));
  EXPECT_EQ(folder.files().size(), 1u);
}

TEST(SceneFile, UnwritablePathThrowsWithPathAndReasonAndLeavesNothing) {
  TempDir folder;
  const Scene scene = scenes::load_scene("rgby");
  const std::string missing = folder.file("no/such/folder/s.scene");
  try {
    scenes::save_scene(scene, missing);
    FAIL() << "no exception";
  } catch (const SceneFileError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(missing), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
  }
  // A folder where the file should go: the rename fails after the temp file
  // was written, and the temp file must be gone.
  const std::string folder_path = folder.file("a_folder");
  ASSERT_EQ(::mkdir(folder_path.c_str(), 0755), 0);
  EXPECT_THROW(scenes::save_scene(scene, folder_path), SceneFileError);
  EXPECT_EQ(folder.files(), std::vector<std::string>{"a_folder"});
  // A regular file used as a folder (fails even for root).
  const std::string plain = folder.file("plain");
  { std::ofstream(plain) << "x"; }
  EXPECT_THROW(scenes::save_scene(scene, plain + "/s.scene"), SceneFileError);
  ::rmdir(folder_path.c_str());
  EXPECT_THROW(scenes::save_scene(scene, ""), SceneFileError);
}

// The temporary file has a short name of its own: a destination name near the
// file system's 255-byte limit still works, with the usual permissions.
TEST(SceneFile, LongNamesAndPermissions) {
  const TempDir folder;
  const std::string path = folder.file(std::string(250, 'n'));
  scenes::save_scene(scenes::load_scene("rgb"), path);
  EXPECT_EQ(folder.files(), std::vector<std::string>{std::string(250, 'n')});
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
}

// What is not committed disappears.
TEST(AtomicFile, UncommittedLeavesNothing) {
  const TempDir folder;
  {
    scenes::AtomicFile file(folder.file("half"));
    file.write("abc", 3);
  }
  EXPECT_TRUE(folder.files().empty());
  try {
    scenes::AtomicFile file(folder.file("missing-folder/x"));
    FAIL() << "created a file in a missing folder";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), ENOENT);
  }
}

// The contents of a file, or "" when it cannot be read.
std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The reason an AtomicFile for `path` is refused ("" when it is not), with
// nothing left in the folder by the attempt.
std::string refusal(const std::string& path) {
  try {
    scenes::AtomicFile file(path);
    file.write("new", 3);
    file.commit();
  } catch (const scenes::WriteError& e) {
    return e.what();
  }
  return "";
}

// A read-only file is left alone, also by root (the rename needs only the
// folder's permission, so it would replace it silently).
TEST(AtomicFile, RefusesToReplaceAReadOnlyFile) {
  const TempDir folder;
  const std::string path = folder.file("kept");
  { std::ofstream(path) << "old"; }
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  EXPECT_EQ(refusal(path), "it is read-only (refused to replace it)");
  EXPECT_EQ(file_text(path), "old");
  EXPECT_EQ(folder.files(), std::vector<std::string>{"kept"});
  // Writable again, it is replaced.
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  EXPECT_EQ(refusal(path), "");
  EXPECT_EQ(file_text(path), "new");
  // save_scene says which file and why.
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  try {
    scenes::save_scene(scenes::load_scene("rgb"), path);
    FAIL() << "replaced a read-only file";
  } catch (const SceneFileError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write scene file '" + path + "': it is read-only (refused to replace it)");
  }
  EXPECT_EQ(file_text(path), "new");
}

// A symbolic link is neither replaced by a file nor written through (a link
// to /dev/full would otherwise "succeed" by vanishing); nor is anything that
// is not a regular file.
TEST(AtomicFile, RefusesLinksAndWhatIsNotARegularFile) {
  const TempDir folder;
  const std::string target = folder.file("target");
  { std::ofstream(target) << "old"; }
  const std::string link = folder.file("link");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(refusal(link), "it is a symbolic link (refused: the link would be replaced, not "
                           "written through)");
  const std::string dangling = folder.file("dangling");
  ASSERT_EQ(::symlink(folder.file("nowhere").c_str(), dangling.c_str()), 0);
  EXPECT_NE(refusal(dangling), "");
  const std::string fifo = folder.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo), "it exists and is not a regular file (refused to replace it)");
  struct stat info {};
  ASSERT_EQ(::lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_EQ(file_text(target), "old");
  EXPECT_EQ(folder.files(), (std::vector<std::string>{"dangling", "fifo", "link", "target"}));
}

// The signal handlers remove the temporary files in flight and end the
// process by the signal; a signal that was ignored (nohup) stays ignored.
// In a child, as the handlers stay for the process's life. The child may
// allocate and write files after fork: the scenes library and its tests
// start no threads, so no other thread can hold a lock the child needs.
TEST(AtomicFile, SignalRemovesTemporaryFilesAndIgnoredSignalsStayIgnored) {
  const TempDir folder;
  const pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGHUP, SIG_IGN);
    ::signal(SIGTERM, SIG_DFL);
    scenes::remove_temp_files_on_signals();
    scenes::AtomicFile file(folder.file("out"));
    file.write("x", 1);
    ::raise(SIGHUP); // ignored: the program goes on
    if (folder.files().size() != 1) ::_exit(3);
    ::raise(SIGTERM);
    ::_exit(4); // not reached when SIGTERM ends it
  }
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(folder.files().empty()) << "a temporary file is left";
}

TEST(SceneFile, RefusesScenesTheFormatCannotHold) {
  std::ostringstream out;
  Scene scene = scenes::load_scene("rgb");
  scene.name = "two words";
  EXPECT_THROW(scenes::write_scene(scene, out), std::invalid_argument);
  scene.name = "";
  EXPECT_THROW(scenes::write_scene(scene, out), std::invalid_argument);
  scene = scenes::load_scene("rgb");
  scene.x[1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(scenes::write_scene(scene, out), std::invalid_argument);
  scene = scenes::load_scene("rgb");
  scene.radius[2] = -1.0f;
  EXPECT_THROW(scenes::write_scene(scene, out), std::invalid_argument);
  scene = scenes::load_scene("rgb");
  scene.g.pop_back();
  EXPECT_THROW(scenes::write_scene(scene, out), std::invalid_argument);
  EXPECT_TRUE(out.str().empty()) << "nothing written for a refused scene";
  TempDir folder;
  EXPECT_THROW(scenes::save_scene(scene, folder.file("x.scene")), std::invalid_argument);
  EXPECT_TRUE(folder.files().empty());
}

TEST(SceneFile, MissingFileNamesThePathAndReason) {
  try {
    scenes::load_scene_file("/no/such/dir/x.scene");
    FAIL() << "no exception";
  } catch (const SceneFileError& error) {
    EXPECT_STREQ(error.what(),
                 "/no/such/dir/x.scene: cannot open scene file: No such file or directory");
  }
  TempDir folder;
  EXPECT_THROW(scenes::load_scene_file(folder.path()), SceneFileError); // a folder
}

// A pipe would wait for a writer for ever: refused like a folder. The test
// holds the pipe open and puts a line in it, so a reader that opened it
// anyway fails on that line instead of hanging the test.
TEST(SceneFile, RefusesWhatIsNotARegularFile) {
  TempDir folder;
  const std::string fifo = folder.file("pipe.scene");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int held = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::write(held, "x\n", 2), 2);
  try {
    scenes::load_scene_file(fifo);
    FAIL() << "no exception";
  } catch (const SceneFileError& error) {
    EXPECT_EQ(std::string(error.what()), fifo + ": cannot open scene file: not a regular file");
  }
  ::close(held);
}

TEST(SceneFile, AcceptsCommentsBlankLinesCrLfAndPlusSigns) {
  const Scene scene = read_text(
      "scenefile 1\r\n# a comment\r\n\r\nsnow true\r\nanimation snow\r\n  name   hand-made \r\n"
      "circles 2\r\n# x y z radius r g b vx vy vz\r\n"
      "0.25 0.5 1 0.01 1 1 1 0 -0.1 0\r\n\r\n+.5\t1e-3 0 2.5e-2 1 1 1 +0 -1 0\r\nend\r\n# bye\r\n");
  EXPECT_EQ(scene.name, "hand-made");
  EXPECT_TRUE(scene.snow);
  EXPECT_EQ(scene.animation, scenes::Animation::Snow);
  ASSERT_EQ(scene.size(), 2u);
  EXPECT_EQ(scene.x[1], 0.5f);
  EXPECT_EQ(scene.y[1], 0.001f);
  EXPECT_EQ(scene.radius[1], 0.025f);
  EXPECT_EQ(scene.vy[0], -0.1f);
  // No newline after 'end' is fine too.
  EXPECT_EQ(read_text(kHeader + "circles 1\n" + kCircle + "end").size(), 1u);
}

struct BadFile {
  const char* what;
  std::string text;
  int line;
  const char* message; // a part of the message
};

class MalformedSceneFile : public testing::TestWithParam<BadFile> {};

TEST_P(MalformedSceneFile, GivesItsErrorWithTheLineNumber) {
  const BadFile& bad = GetParam();
  const std::string message = error_of(bad.text);
  const std::string prefix = "test.scene:" + std::to_string(bad.line) + ": ";
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << "message: " << message;
  EXPECT_NE(message.find(bad.message), std::string::npos) << "message: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
}

void PrintTo(const BadFile& bad, std::ostream* out) {
  *out << bad.what;
}

const std::string kOne = kHeader + "circles 1\n";
const std::string kTwo = kHeader + "circles 2\n";

INSTANTIATE_TEST_SUITE_P(
    SceneFile, MalformedSceneFile,
    testing::Values(
        BadFile{"empty", "", 1, "empty file"},
        BadFile{"not_a_scene_file", "P6\n256 256\n255\n", 1, "not a scene file"},
        BadFile{"magic_with_extra", "scenefile 1 x\n", 1, "not a scene file"},
        BadFile{"future_version", "scenefile 2\n", 1, "version '2' is not supported"},
        BadFile{"unknown_keyword", "scenefile 1\nname t\ncolour red\n", 3,
                "unknown keyword 'colour'"},
        BadFile{"keyword_without_value", "scenefile 1\nname\n", 2, "exactly one value"},
        BadFile{"name_with_two_words", "scenefile 1\nname a b\n", 2, "exactly one value"},
        BadFile{"name_twice", "scenefile 1\nname a\nname b\n", 3, "'name' given twice"},
        BadFile{"name_not_ascii", "scenefile 1\nname caf\xc3\xa9\n", 2, "printable"},
        BadFile{"unknown_animation", "scenefile 1\nanimation spin\n", 2,
                "unknown animation 'spin'"},
        BadFile{"snow_not_boolean", "scenefile 1\nsnow 1\n", 2, "true or false"},
        BadFile{"snow_missing", "scenefile 1\nname t\nanimation none\n\ncircles 1\n", 5,
                "'snow' is missing"},
        BadFile{"name_missing", "scenefile 1\nsnow true\nanimation none\ncircles 0\n", 4,
                "'name' is missing"},
        BadFile{"header_truncated", "scenefile 1\nname t\n", 2, "ends in the header"},
        BadFile{"count_negative", kHeader + "circles -1\n", 5, "not a whole number"},
        BadFile{"count_fraction", kHeader + "circles 1.5\n", 5, "not a whole number"},
        BadFile{"count_text", kHeader + "circles many\n", 5, "not a whole number"},
        BadFile{"count_over_limit", kHeader + "circles 50000001\n", 5,
                "over the limit of 50000000"},
        BadFile{"count_overflows", kHeader + "circles 99999999999999999999999\n", 5,
                "over the limit"},
        BadFile{"fireworks_too_many",
                "scenefile 1\nname f\nanimation fireworks\nsnow false\ncircles 316\n", 5,
                "at most 315"},
        BadFile{"too_few_numbers", kOne + "0.5 0.5 0.5 0.1 1 0 0 0 0\nend\n", 6,
                "has 10 numbers, this one has 9"},
        BadFile{"too_many_numbers", kOne + "0.5 0.5 0.5 0.1 1 0 0 0 0 0 0\nend\n", 6,
                "this one has 11"},
        BadFile{"not_a_number", kTwo + kCircle + "0.5 abc 0.5 0.1 1 0 0 0 0 0\nend\n", 7,
                "field 2 (y): 'abc' is not a number"},
        BadFile{"number_with_garbage", kOne + "0.5 0.5 0.5x 0.1 1 0 0 0 0 0\nend\n", 6,
                "field 3 (z): '0.5x' is not a number"},
        BadFile{"hex_float", kOne + "0x1p-2 0.5 0.5 0.1 1 0 0 0 0 0\nend\n", 6, "is not a number"},
        BadFile{"nan", kOne + "0.5 0.5 0.5 0.1 nan 0 0 0 0 0\nend\n", 6,
                "field 5 (r): 'nan' is not a finite number"},
        BadFile{"infinity", kOne + "0.5 0.5 0.5 0.1 1 0 0 -inf 0 0\nend\n", 6,
                "field 8 (vx): '-inf' is not a finite number"},
        BadFile{"overflow", kOne + "0.5 0.5 0.5 0.1 1 0 0 0 1e39 0\nend\n", 6,
                "out of the float range"},
        BadFile{"negative_radius", kOne + "0.5 0.5 0.5 -0.1 1 0 0 0 0 0\nend\n", 6,
                "field 4 (radius): '-0.1' is negative"},
        BadFile{"double_sign", kOne + "0.5 0.5 0.5 0.1 1 0 0 0 +-1 0\nend\n", 6,
                "'+-1' is not a number"},
        BadFile{"nul_byte", kOne + std::string("0.5 0.5\0 0.5 0.1 1 0 0 0 0 0\nend\n", 32), 6,
                "is not a number"},
        BadFile{"truncated_after_header", kTwo, 6, "file ends after 0 of 2 circles"},
        BadFile{"truncated_between_circles", kTwo + kCircle, 7, "file ends after 1 of 2"},
        BadFile{"truncated_mid_number", kOne + "0.5 0.5 0.5 0.1 1 0 0 0 0 0.", 7, "without 'end'"},
        BadFile{"end_too_early", kTwo + kCircle + "end\n", 7, "'end' after 1 circles"},
        BadFile{"more_circles_than_count", kOne + kCircle + kCircle + "end\n", 7,
                "more circles than the header's 1"},
        BadFile{"garbage_after_circles", kOne + kCircle + "the end\n", 7, "expected 'end'"},
        BadFile{"text_on_end_line", kOne + kCircle + "end now\n", 7, "after 'end'"},
        BadFile{"trailing_garbage", kOne + kCircle + "end\n\n# ok\n0 0 0\n", 10,
                "unexpected text after 'end'"},
        BadFile{"huge_count_tiny_file", kHeader + "circles 49999999\nend\n", 6,
                "'end' after 0 circles; the header says 49999999"},
        BadFile{"line_too_long", kOne + std::string(5000, '1') + "\nend\n", 6, "longer than 4096"},
        BadFile{"line_too_long_at_end", kOne + std::string(5000, ' '), 6, "longer than 4096"}),
    [](const testing::TestParamInfo<BadFile>& param) { return std::string(param.param.what); });

TEST(SceneFile, ErrorsInAFileNameTheFile) {
  TempDir folder;
  const std::string path = folder.file("bad.scene");
  { std::ofstream(path) << kTwo << kCircle << "0.5 0.5 0.5 0.1 1 0 0 0 0 nan\nend\n"; }
  try {
    scenes::load_scene_file(path);
    FAIL() << "no exception";
  } catch (const SceneFileError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(path + ":7: field 10 (vz): 'nan'", 0), 0u)
        << error.what();
  }
}

// A case from the fuzzer (scripts/fuzz_scene_file.sh): with the clamp in
// snow_noise removed, it finds this within seconds, because a file may hold
// any finite value and stepping converted 3.5e10 to int (undefined
// behaviour). Stepping must stay defined and finite for values this extreme.
TEST(SceneFile, ExtremeButValidSnowSceneAdvancesSafely) {
  Scene scene = read_text("scenefile 1\nname snow\nanimation snow\nsnow true\ncircles 3\n"
                          "0.56 0.57 5000000016 0.003 1 1 1 -0.014 -0.039 0\n"
                          "3e38 -3e38 0.5 0.003 1 1 1 0 0 0\n"
                          "0.5 0.5 -1e30 1e30 1 1 1 1e30 -1e30 0\n"
                          "end\n");
  for (int frame = 0; frame < 3; ++frame) scenes::advance(scene);
  for (std::size_t i = 0; i < scene.size(); ++i) {
    EXPECT_TRUE(std::isfinite(scene.x[i]) && std::isfinite(scene.y[i])) << "circle " << i;
  }
}

TEST(SceneFile, LongestAllowedLineIsAccepted) {
  // 10 numbers padded with spaces to exactly the limit, with and without CR.
  std::string line = "0.5 0.5 0.5 0.1 1 0 0 0 0 0";
  line += std::string(scenes::kMaxSceneFileLine - line.size(), ' ');
  EXPECT_EQ(read_text(kOne + line + "\nend\n").size(), 1u);
  EXPECT_EQ(read_text(kOne + line + "\r\nend\n").size(), 1u);
  EXPECT_NE(error_of(kOne + line + " \nend\n").find(":6: line longer"), std::string::npos);
}

} // namespace
