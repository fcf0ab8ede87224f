// The per-circle animation steps, shared by the host (scenes::advance) and the
// CUDA renderer's kernels. Plain C++ for g++; __host__ __device__ under nvcc.
//
// Each step changes one circle and reads only what its comment lists, so a
// kernel may run one thread per circle with no synchronisation. Every float
// operation that could be fused goes through the fp:: helpers (float_ops.h),
// so the GPU produces the same bits as the host.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "scenes/float_ops.h"
#include "scenes/scene.h"

namespace scenes {

// One frame of every animation is 1/60 s.
constexpr float kFrameDt = 1.0f / 60.0f;

// ---------------------------------------------------------------- bouncingballs
constexpr float kBallGravity = -2.8f;
constexpr float kBallBounce = -0.8f; // vy factor when a falling ball is below the floor
constexpr float kBallRestEpsilon = 0.001f;

// Reads and writes ball i's y and vy only.
SCENES_HD inline void bouncing_ball_step(float& y, float& vy) {
  if (vy == 0.0f && y == 0.0f) return; // at rest for good
  const float old_vy = vy;
  const float old_y = y;
  if (y < 0.0f && vy < 0.0f) vy = fp::mul(vy, kBallBounce);
  vy = fp::add(vy, fp::mul(kBallGravity, kFrameDt));
  y = fp::add_mul(y, vy, kFrameDt);
  if (std::fabs(fp::sub(vy, old_vy)) < kBallRestEpsilon && old_y < 0.0f &&
      std::fabs(fp::sub(y, old_y)) < kBallRestEpsilon) {
    vy = 0.0f;
    y = 0.0f;
  }
}

// --------------------------------------------------------------------- hypnosis
constexpr float kHypnosisGrowth = 0.01f;
constexpr float kHypnosisCutoff = 0.5f;
constexpr float kHypnosisRestart = 0.02f;

// Reads and writes circle i's radius only. The test comes before the growth:
// a radius just past 0.5 is drawn for one frame, then restarts at 0.02.
SCENES_HD inline void hypnosis_step(float& radius) {
  radius = radius > kHypnosisCutoff ? kHypnosisRestart : fp::add(radius, kHypnosisGrowth);
}

// -------------------------------------------------------------------- fireworks
constexpr int kFireworkShells = 15;
constexpr int kSparksPerShell = 20;
constexpr std::size_t kFireworksMaxCircles = kFireworkShells + kFireworkShells * kSparksPerShell;
constexpr float kFireworkPi = 3.14159f; // the course's value, not M_PI
constexpr float kSparkMaxDistance = 0.25f;
constexpr float kSparkSpeedDivisor = 5.0f;

// Unit direction of spark j (0..19) of a shell: the float cos and sin of
// angle = float(2j) * 3.14159f / 20, as the C library's cosf/sinf return them
// (a test checks this on the host). A table rather than a call, because the
// device's cosf/sinf may differ from the host's in the last bit.
SCENES_HD inline void spark_direction(int j, float& cos_a, float& sin_a) {
  constexpr float kCos[kSparksPerShell] = {
      0x1p+0f,          0x1.e6f0e4p-1f,  0x1.9e3784p-1f,  0x1.2cf244p-1f,  0x1.3c6f36p-2f,
      0x1.54442ep-20f,  -0x1.3c6e94p-2f, -0x1.2cf202p-1f, -0x1.9e375p-1f,  -0x1.e6f0cap-1f,
      -0x1p+0f,         -0x1.e6f1p-1f,   -0x1.9e37b4p-1f, -0x1.2cf284p-1f, -0x1.3c6fdp-2f,
      -0x1.fe6644p-19f, 0x1.3c6deap-2f,  0x1.2cf1b6p-1f,  0x1.9e3724p-1f,  0x1.e6f0bp-1f};
  constexpr float kSin[kSparksPerShell] = {
      0x0p+0f,         0x1.3c6ee2p-2f,  0x1.2cf222p-1f,  0x1.9e376ap-1f,  0x1.e6f0d6p-1f,
      0x1p+0f,         0x1.e6f0fp-1f,   0x1.9e379cp-1f,  0x1.2cf268p-1f,  0x1.3c6f8p-2f,
      0x1.54442ep-19f, -0x1.3c6e3cp-2f, -0x1.2cf1dep-1f, -0x1.9e373cp-1f, -0x1.e6f0bep-1f,
      -0x1p+0f,        -0x1.e6f10cp-1f, -0x1.9e37d2p-1f, -0x1.2cf2a6p-1f, -0x1.3c702p-2f};
  cos_a = kCos[j];
  sin_a = kSin[j];
}

// Places spark j of the shell at (shell_x, shell_y) with radius shell_radius
// on the shell's rim, moving outwards. Used by the generator and on restart.
SCENES_HD inline void spark_start(int j, float shell_x, float shell_y, float shell_radius, float& x,
                                  float& y, float& vx, float& vy) {
  float cos_a = 0.0f;
  float sin_a = 0.0f;
  spark_direction(j, cos_a, sin_a);
  x = fp::add_mul(shell_x, cos_a, shell_radius);
  y = fp::add_mul(shell_y, sin_a, shell_radius);
  vx = fp::div(cos_a, kSparkSpeedDivisor);
  vy = fp::div(sin_a, kSparkSpeedDivisor);
}

// Circles 0..14 are shells (they never move); circle i >= 15 is spark
// (i - 15) % 20 of shell (i - 15) / 20.
SCENES_HD inline bool is_spark(int i) {
  return i >= kFireworkShells;
}
SCENES_HD inline int spark_shell(int i) {
  return (i - kFireworkShells) / kSparksPerShell;
}
SCENES_HD inline int spark_number(int i) {
  return (i - kFireworkShells) % kSparksPerShell;
}

// One frame of circle i. Writes circle i's x, y, z, vx, vy, vz when i is a
// spark; reads x, y and radius of its shell only (shells are never written),
// so all circles may be stepped at once. Shells return unchanged.
SCENES_HD inline void fireworks_step(int i, const float* shell_x, const float* shell_y,
                                     const float* shell_radius, float& x, float& y, float& z,
                                     float& vx, float& vy, float& vz) {
  if (!is_spark(i)) return;
  const int shell = spark_shell(i);
  x = fp::add_mul(x, vx, kFrameDt);
  y = fp::add_mul(y, vy, kFrameDt);
  const float dx = fp::sub(x, shell_x[shell]);
  const float dy = fp::sub(y, shell_y[shell]);
  const float distance = fp::sqrt(fp::add(fp::mul(dx, dx), fp::mul(dy, dy)));
  if (distance > kSparkMaxDistance) {
    spark_start(spark_number(i), shell_x[shell], shell_y[shell], shell_radius[shell], x, y, vx, vy);
    z = 0.0f;
    vz = 0.0f;
  }
}

// ------------------------------------------------------------------------- snow
// Our own design (docs/scenes.md leaves it open): flakes pulled down by gravity,
// pushed sideways by a smooth value noise field that differs per depth layer,
// and slowed by drag. A flake's radius stands for its nearness (snow_scene.cpp
// draws it as perspective would), so forces scale with it: near flakes fall and
// drift faster than far ones, and the field moves as if seen in depth. A flake
// that leaves the bottom comes back above the top; one leaving a side wraps.
constexpr float kSnowNearRadius = 0.04f;  // the largest radius the generator draws
constexpr float kSnowGravity = -0.3f;     // units/s^2 for a flake of kSnowNearRadius
constexpr float kSnowFarGravity = -0.03f; // added for every flake, however far
constexpr float kSnowWind = 0.25f;        // peak sideways force for the nearest flakes
constexpr float kSnowLift = 0.02f;        // peak vertical noise force; below gravity: none rise
constexpr float kSnowDragKeep = 0.985f;   // fraction of velocity kept per frame
constexpr float kSnowNoiseScale = 3.0f;   // noise cells across the screen
constexpr float kSnowLayerShift = 7.0f;   // noise offset per unit of depth
constexpr float kSnowNoiseLimit = 1.0e6f;

// A 32-bit integer hash (xor-shift-multiply rounds) of a lattice point.
SCENES_HD inline std::uint32_t snow_hash(std::int32_t ix, std::int32_t iy, std::uint32_t salt) {
  std::uint32_t h = static_cast<std::uint32_t>(ix) * 0x8da6b343u ^
                    static_cast<std::uint32_t>(iy) * 0xd8163841u ^ salt;
  h = (h ^ (h >> 16)) * 0x7feb352du;
  h = (h ^ (h >> 15)) * 0x846ca68bu;
  return h ^ (h >> 16);
}

// Value noise in [0, 1): hashed lattice values, blended with smoothstep.
// Only exact operations (floor, conversions, powers of two) and fp:: helpers,
// so host and device agree.
SCENES_HD inline float snow_noise(float u, float v, std::uint32_t salt) {
  // Keep the lattice index inside int range for any finite input.
  u = std::fmin(std::fmax(u, -kSnowNoiseLimit), kSnowNoiseLimit);
  v = std::fmin(std::fmax(v, -kSnowNoiseLimit), kSnowNoiseLimit);
  const float fu = std::floor(u);
  const float fv = std::floor(v);
  const auto iu = static_cast<std::int32_t>(fu);
  const auto iv = static_cast<std::int32_t>(fv);
  const float tu = fp::sub(u, fu);
  const float tv = fp::sub(v, fv);
  // smoothstep t*t*(3 - 2t)
  const float su = fp::mul(fp::mul(tu, tu), fp::sub(3.0f, fp::mul(2.0f, tu)));
  const float sv = fp::mul(fp::mul(tv, tv), fp::sub(3.0f, fp::mul(2.0f, tv)));
  constexpr float kToUnit = 1.0f / 16777216.0f; // 24 hash bits to [0, 1), exactly
  const float c00 = fp::mul(static_cast<float>(snow_hash(iu, iv, salt) >> 8), kToUnit);
  const float c10 = fp::mul(static_cast<float>(snow_hash(iu + 1, iv, salt) >> 8), kToUnit);
  const float c01 = fp::mul(static_cast<float>(snow_hash(iu, iv + 1, salt) >> 8), kToUnit);
  const float c11 = fp::mul(static_cast<float>(snow_hash(iu + 1, iv + 1, salt) >> 8), kToUnit);
  const float bottom = fp::add_mul(c00, fp::sub(c10, c00), su);
  const float top = fp::add_mul(c01, fp::sub(c11, c01), su);
  return fp::add_mul(bottom, fp::sub(top, bottom), sv);
}

// One frame of flake i. Reads and writes flake i's x, y, vx, vy; reads its z
// and radius. Nothing else, so all flakes may be stepped at once.
SCENES_HD inline void snow_step(float& x, float& y, float z, float& vx, float& vy, float radius) {
  const float nu = fp::add_mul(fp::mul(z, kSnowLayerShift), x, kSnowNoiseScale);
  const float nv = fp::mul(y, kSnowNoiseScale);
  // Nearness in (0, 1]: the radius against the nearest flake's (clamped, so a
  // scene file's huge radius cannot make the forces overflow).
  const float near = fp::div(std::fmin(std::fmax(radius, 0.0f), kSnowNearRadius), kSnowNearRadius);
  // Noise in [0, 1) mapped to a force in [-peak, peak).
  const float wind = fp::mul(
      fp::mul(fp::sub(fp::mul(2.0f, snow_noise(nu, nv, 0x5eed0001u)), 1.0f), kSnowWind), near);
  const float lift =
      fp::mul(fp::sub(fp::mul(2.0f, snow_noise(nu, nv, 0x5eed0002u)), 1.0f), kSnowLift);
  const float gravity = fp::add_mul(kSnowFarGravity, kSnowGravity, near);
  vx = fp::mul(fp::add_mul(vx, wind, kFrameDt), kSnowDragKeep);
  vy = fp::mul(fp::add_mul(vy, fp::add(gravity, lift), kFrameDt), kSnowDragKeep);
  x = fp::add_mul(x, vx, kFrameDt);
  y = fp::add_mul(y, vy, kFrameDt);
  const float span = fp::add(1.0f, fp::mul(2.0f, radius)); // the wrap period, edge to edge
  if (y < -radius) y = fp::add(y, span);
  if (x < -radius) x = fp::add(x, span);
  if (x > fp::add(1.0f, radius)) x = fp::sub(x, span);
}

// ------------------------------------------------------------------ dispatch
// Pointers to one scene's per-circle arrays, on the host or on the device.
struct CircleArrays {
  float *x, *y, *z, *vx, *vy, *vz, *radius;
};

// One frame of circle i under `animation`: the one dispatch that
// scenes::advance (a loop on the host) and the GPU (a thread per circle) share.
SCENES_HD inline void advance_circle(Animation animation, int i, const CircleArrays& c) {
  switch (animation) {
  case Animation::None:
    break;
  case Animation::BouncingBalls:
    bouncing_ball_step(c.y[i], c.vy[i]);
    break;
  case Animation::Hypnosis:
    hypnosis_step(c.radius[i]);
    break;
  case Animation::Fireworks:
    fireworks_step(i, c.x, c.y, c.radius, c.x[i], c.y[i], c.z[i], c.vx[i], c.vy[i], c.vz[i]);
    break;
  case Animation::Snow:
    snow_step(c.x[i], c.y[i], c.z[i], c.vx[i], c.vy[i], c.radius[i]);
    break;
  }
}

} // namespace scenes
