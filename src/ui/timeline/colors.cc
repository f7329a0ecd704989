#include "ui/timeline/colors.h"

namespace strata {

namespace {
// A palette of mid-saturation colours readable with dark or light text (RGB).
constexpr uint32_t kPalette[] = {
    0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948, 0xB07AA1, 0xFF9DA7,
    0x9C755F, 0xBAB0AC, 0x6B9AC4, 0xD4A6C8, 0x86BCB6, 0xF1CE63, 0x8CD17D, 0xB6992D,
    0x499894, 0xE17C05, 0xD37295, 0xA0CBE8, 0xFFBE7D, 0x79706E, 0xD7B5A6, 0x5FA2CE,
};

uint32_t fnv1a(std::string_view s) {
  uint32_t h = 2166136261u;
  for (char c : s) {
    h ^= static_cast<uint8_t>(c);
    h *= 16777619u;
  }
  return h;
}
}  // namespace

uint32_t color_for_name(std::string_view name) {
  uint32_t rgb = kPalette[fnv1a(name) % (sizeof kPalette / sizeof kPalette[0])];
  uint32_t r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
  return 0xFF000000u | (b << 16) | (g << 8) | r;
}

uint32_t shade(uint32_t c, float f) {
  auto ch = [&](int shift) {
    float v = static_cast<float>((c >> shift) & 0xFF) * f;
    return static_cast<uint32_t>(v > 255 ? 255 : v) << shift;
  };
  return (c & 0xFF000000u) | ch(16) | ch(8) | ch(0);
}

uint32_t text_color_on(uint32_t c) {
  float r = (c & 0xFF), g = ((c >> 8) & 0xFF), b = ((c >> 16) & 0xFF);
  float lum = 0.299f * r + 0.587f * g + 0.114f * b;
  return lum > 140 ? 0xFF101010u : 0xFFF5F5F5u;
}

}  // namespace strata
