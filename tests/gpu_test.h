// The one fixture every GPU test derives from: it skips the test, with the
// reason, when there is no usable CUDA device, so CI runs the CPU tests only.
#pragma once

#include <gtest/gtest.h>

#include "common/device.h"

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string reason = common::no_device_reason();
    if (!reason.empty()) GTEST_SKIP() << "no CUDA device available: " << reason;
  }
};

// For parameterized GPU tests: the same skip, with a parameter.
template <class Param>
class GpuTestWithParam : public GpuTest, public ::testing::WithParamInterface<Param> {};
