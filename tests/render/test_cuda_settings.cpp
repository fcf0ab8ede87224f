// The CUDA renderer's settings on the host (no GPU needed): an option left
// out takes its default, an option out of range is an error naming it; the
// programs' renderer fills the options left out from the RENDER_CUDA_*
// variables, leaves those given alone, and rejects bad values naming the
// variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "render/cuda_mode.h"
#include "render/cuda_renderer.h"
#include "setup/settings.h"

namespace settings = render::gpu::settings;
using render::CudaRendererOptions;

namespace {

constexpr const char* kVariables[] = {"RENDER_CUDA_ROWS",
                                      "RENDER_CUDA_TILED_BLOCKS",
                                      "RENDER_CUDA_SUFFIX_MIN_PAIRS",
                                      "RENDER_CUDA_SUFFIX_MIN_FULL",
                                      "RENDER_CUDA_GRAPHS",
                                      "RENDER_CUDA_BINNING"};

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

// The options with the environment's settings, from `name` set to `value`.
CudaRendererOptions from_variable(const char* name, const char* value,
                                  const CudaRendererOptions& given = {}) {
  ScopedVariable variable(name, value);
  return settings::with_environment(given);
}

// Each of `values` in `name` is rejected, the message holding `part`.
void expect_rejected(const char* name, std::initializer_list<const char*> values,
                     const std::string& part) {
  for (const char* value : values)
    EXPECT_NE(rejection([&] { from_variable(name, value); }).find(part), std::string::npos)
        << name << "='" << value << "'";
}

} // namespace

TEST(CudaSettings, OptionsLeftOutTakeTheDefaults) {
  const settings::Settings s = settings::resolve({});
  EXPECT_EQ(s.mode, render::CudaMode::Auto);
  EXPECT_FALSE(s.max_pairs_per_pass);
  EXPECT_TRUE(s.allow_fused_blend);
  EXPECT_TRUE(s.warm_up);
  EXPECT_EQ(s.rows_per_thread, 2);
  EXPECT_EQ(s.tiled_blocks_per_sm, 8);
  EXPECT_EQ(s.suffix_min_pairs, 256u);
  EXPECT_EQ(s.suffix_min_full_percent, 25u);
  EXPECT_TRUE(s.graphs);
  EXPECT_EQ(s.binning, settings::kDefaultBinning);
}

TEST(CudaSettings, OptionsGivenAreKeptOrRejected) {
  CudaRendererOptions o;
  o.mode = render::CudaMode::Binned;
  o.max_pairs_per_pass = 1000;
  o.binned_rows_per_thread = 4;
  o.tiled_blocks_per_sm = 6;
  o.suffix_min_pairs = 0;
  o.suffix_min_full_percent = 100;
  o.use_graphs = false;
  o.binning = render::CudaBinning::Sort;
  const settings::Settings s = settings::resolve(o);
  EXPECT_EQ(s.mode, render::CudaMode::Binned);
  EXPECT_EQ(s.max_pairs_per_pass, std::size_t{1000});
  EXPECT_EQ(s.rows_per_thread, 4);
  EXPECT_EQ(s.tiled_blocks_per_sm, 6);
  EXPECT_EQ(s.suffix_min_pairs, 0u) << "0: off";
  EXPECT_EQ(s.suffix_min_full_percent, 100u);
  EXPECT_FALSE(s.graphs);
  EXPECT_EQ(s.binning, render::CudaBinning::Sort);

  CudaRendererOptions rows;
  rows.binned_rows_per_thread = 3;
  EXPECT_NE(rejection([&] { settings::resolve(rows); }).find("must be one of 1, 2, 4, not 3"),
            std::string::npos);
  CudaRendererOptions blocks;
  blocks.tiled_blocks_per_sm = 5;
  EXPECT_NE(rejection([&] { settings::resolve(blocks); }).find("must be one of 4, 6, 8, not 5"),
            std::string::npos);
  CudaRendererOptions share;
  share.suffix_min_full_percent = 101;
  EXPECT_NE(rejection([&] { settings::resolve(share); }).find("not 101"), std::string::npos);
  CudaRendererOptions passes;
  passes.max_pairs_per_pass = 0;
  EXPECT_NE(rejection([&] { settings::resolve(passes); }).find("at least 1"), std::string::npos);
}

TEST(CudaSettings, KernelShapesFromTheirVariables) {
  for (const char* name : kVariables) unsetenv(name);
  EXPECT_FALSE(settings::with_environment({}).binned_rows_per_thread);
  EXPECT_FALSE(from_variable("RENDER_CUDA_ROWS", "").binned_rows_per_thread) << "empty: unset";
  EXPECT_EQ(from_variable("RENDER_CUDA_ROWS", "1").binned_rows_per_thread, 1);
  EXPECT_EQ(from_variable("RENDER_CUDA_TILED_BLOCKS", "4").tiled_blocks_per_sm, 4);
  CudaRendererOptions given;
  given.binned_rows_per_thread = 4;
  EXPECT_EQ(from_variable("RENDER_CUDA_ROWS", "1", given).binned_rows_per_thread, 4)
      << "the option wins over the variable";
  EXPECT_EQ(from_variable("RENDER_CUDA_ROWS", "bad", given).binned_rows_per_thread, 4)
      << "a variable of a given option is not read";
  for (const char* bad : {"3", "2x", "abc", "99999999999999999999", " 4"}) {
    EXPECT_NE(rejection([&] {
                from_variable("RENDER_CUDA_TILED_BLOCKS", bad);
              }).find("RENDER_CUDA_TILED_BLOCKS='"),
              std::string::npos)
        << bad;
    EXPECT_NE(rejection([&] { from_variable("RENDER_CUDA_ROWS", bad); }).find("RENDER_CUDA_ROWS='"),
              std::string::npos)
        << bad;
  }
}

TEST(CudaSettings, SuffixVariablesTakeNumbersOrOff) {
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_PAIRS", "off").suffix_min_pairs, 0u);
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_PAIRS", "512").suffix_min_pairs, 512u);
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_FULL", "off").suffix_min_full_percent, 0u)
      << "off: any share";
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_FULL", "1").suffix_min_full_percent, 1u);
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_FULL", "100").suffix_min_full_percent, 100u);
  CudaRendererOptions off;
  off.suffix_min_pairs = 0;
  EXPECT_EQ(from_variable("RENDER_CUDA_SUFFIX_MIN_PAIRS", "1", off).suffix_min_pairs, 0u)
      << "the option wins over the variable";
  expect_rejected("RENDER_CUDA_SUFFIX_MIN_PAIRS",
                  {"2x", "abc", "0", "-3", "99999999999999999999", " 5"},
                  "RENDER_CUDA_SUFFIX_MIN_PAIRS='");
  expect_rejected("RENDER_CUDA_SUFFIX_MIN_FULL",
                  {"0", "101", "-5", "50%", "1e3", "1234567890", "many"},
                  "RENDER_CUDA_SUFFIX_MIN_FULL='");
}

TEST(CudaSettings, GraphsVariableSaysOnOrOff) {
  EXPECT_EQ(from_variable("RENDER_CUDA_GRAPHS", "off").use_graphs, false);
  EXPECT_EQ(from_variable("RENDER_CUDA_GRAPHS", "on").use_graphs, true);
  CudaRendererOptions plain;
  plain.use_graphs = false;
  EXPECT_EQ(from_variable("RENDER_CUDA_GRAPHS", "on", plain).use_graphs, false)
      << "the option wins over the variable";
  expect_rejected("RENDER_CUDA_GRAPHS", {"yes", "0", "OFF "}, "must be 'on' or 'off'");
}

TEST(CudaSettings, BinningVariableSaysCountOrSort) {
  EXPECT_FALSE(from_variable("RENDER_CUDA_BINNING", "").binning) << "empty: unset";
  EXPECT_EQ(from_variable("RENDER_CUDA_BINNING", "count").binning, render::CudaBinning::Count);
  EXPECT_EQ(from_variable("RENDER_CUDA_BINNING", "sort").binning, render::CudaBinning::Sort);
  CudaRendererOptions sorted;
  sorted.binning = render::CudaBinning::Sort;
  EXPECT_EQ(from_variable("RENDER_CUDA_BINNING", "count", sorted).binning,
            render::CudaBinning::Sort)
      << "the option wins over the variable";
  expect_rejected("RENDER_CUDA_BINNING", {"radix", "Count", "sort "}, "must be 'count' or 'sort'");
}

// The programs' renderer reads the variables before it looks for a device:
// a bad value is the error, with or without a GPU.
TEST(CudaSettings, TheProgramsRendererRejectsBadVariables) {
  for (const char* name : kVariables) {
    ScopedVariable bad(name, "bad");
    EXPECT_NE(rejection([] { render::make_cuda_renderer(render::CudaMode::Auto); }).find(name),
              std::string::npos)
        << name;
  }
}
