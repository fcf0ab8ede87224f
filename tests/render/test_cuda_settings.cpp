// The CUDA renderer's tuning settings on the host (no GPU needed): the
// option wins, else the RENDER_CUDA_* variable, else the default; bad
// values of either are errors that name them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cuda_settings.h"

namespace settings = render::gpu::settings;

namespace {

// Sets `name` to `value` for the scope (empty value: unset).
class ScopedVariable {
public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (*value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedVariable() { unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
  const char* name_;
};

// The message of the std::invalid_argument `f` throws; empty if none.
template <class F> std::string rejection(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(CudaSettings, KernelShapesFromOptionVariableOrDefault) {
  EXPECT_EQ(settings::binned_rows(0), 2);
  EXPECT_EQ(settings::binned_rows(4), 4);
  EXPECT_EQ(settings::tiled_blocks(0), 8);
  EXPECT_EQ(settings::tiled_blocks(6), 6);
  {
    ScopedVariable rows("RENDER_CUDA_ROWS", "1");
    EXPECT_EQ(settings::binned_rows(0), 1);
    EXPECT_EQ(settings::binned_rows(4), 4) << "the option wins over the variable";
  }
  for (const char* bad : {"3", "2x", "abc", "99999999999999999999"}) {
    ScopedVariable blocks("RENDER_CUDA_TILED_BLOCKS", bad);
    EXPECT_NE(rejection([] { settings::tiled_blocks(0); }).find("RENDER_CUDA_TILED_BLOCKS='"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(rejection([] { settings::binned_rows(3); }).find("must be one of 1, 2, 4, not 3"),
            std::string::npos);
}

TEST(CudaSettings, SuffixThresholdsTakeNumbersOrOff) {
  EXPECT_EQ(settings::suffix_min_pairs(0), 256u);
  EXPECT_EQ(settings::suffix_min_pairs(-1), 0u) << "negative: off";
  EXPECT_EQ(settings::suffix_min_pairs(64), 64u);
  EXPECT_EQ(settings::suffix_min_full(0), 25u);
  EXPECT_EQ(settings::suffix_min_full(100), 100u);
  EXPECT_FALSE(rejection([] { settings::suffix_min_full(101); }).empty());
  {
    ScopedVariable pairs("RENDER_CUDA_SUFFIX_MIN_PAIRS", "off");
    EXPECT_EQ(settings::suffix_min_pairs(0), 0u);
  }
  {
    ScopedVariable pairs("RENDER_CUDA_SUFFIX_MIN_PAIRS", "512");
    EXPECT_EQ(settings::suffix_min_pairs(0), 512u);
  }
  for (const char* bad : {"0", "-3", "1e3", "1234567890", "many"}) {
    ScopedVariable full("RENDER_CUDA_SUFFIX_MIN_FULL", bad);
    EXPECT_NE(rejection([] { settings::suffix_min_full(0); }).find("RENDER_CUDA_SUFFIX_MIN_FULL='"),
              std::string::npos)
        << bad;
  }
}

TEST(CudaSettings, GraphsVariableSaysOnOrOff) {
  EXPECT_TRUE(settings::graphs_wanted(true));
  EXPECT_FALSE(settings::graphs_wanted(false));
  {
    ScopedVariable graphs("RENDER_CUDA_GRAPHS", "off");
    EXPECT_FALSE(settings::graphs_wanted(true));
  }
  {
    ScopedVariable graphs("RENDER_CUDA_GRAPHS", "on");
    EXPECT_FALSE(settings::graphs_wanted(false)) << "on keeps the option's choice";
  }
  ScopedVariable graphs("RENDER_CUDA_GRAPHS", "yes");
  EXPECT_NE(rejection([] { settings::graphs_wanted(true); }).find("must be 'on' or 'off'"),
            std::string::npos);
}
