// SHA-256 written from the FIPS 180-4 text. Kept in-tree so the transport
// needs no crypto library besides libmunge.
#include "net/sha256.hpp"

#include <array>
#include <cmath>
#include <cstdint>

namespace tofa::net {
namespace {

using Word = std::uint32_t;

// FIPS 180-4 4.2.2 / 5.3.3: the constants are the first 32 bits of the
// fractional parts of the cube roots (K) and square roots (H0) of the first
// primes. Computing them from that definition avoids a table of magic numbers;
// long double keeps more than 32 correct fractional bits for primes < 312.
struct Constants {
  std::array<Word, 64> k{};
  std::array<Word, 8> h0{};
  Constants() {
    int found = 0;
    for (int n = 2; found < 64; ++n) {
      bool prime = true;
      for (int d = 2; d * d <= n; ++d) prime = prime && n % d != 0;
      if (!prime) continue;
      auto frac32 = [](long double x) {
        return static_cast<Word>((x - std::floor(x)) * 4294967296.0L);
      };
      if (found < 8) h0[found] = frac32(std::sqrt(static_cast<long double>(n)));
      k[found++] = frac32(std::cbrt(static_cast<long double>(n)));
    }
  }
};

const Constants& constants() {
  static const Constants c;
  return c;
}

Word rotr(Word x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::array<Word, 8>& h, const unsigned char* block) {
  const auto& k = constants().k;
  std::array<Word, 64> w{};
  for (int t = 0; t < 16; ++t)
    w[t] = Word(block[4 * t]) << 24 | Word(block[4 * t + 1]) << 16 |
           Word(block[4 * t + 2]) << 8 | Word(block[4 * t + 3]);
  for (int t = 16; t < 64; ++t) {
    Word s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    Word s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  Word a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < 64; ++t) {
    Word t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
    Word t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

}  // namespace

std::string sha256(const std::string& data) {
  std::array<Word, 8> h = constants().h0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t full = data.size() / 64 * 64;
  for (std::size_t i = 0; i < full; i += 64) compress(h, bytes + i);

  // Padding: 0x80, zeros, then the bit length as 64-bit big-endian; one or two blocks.
  unsigned char tail[128] = {};
  std::size_t rest = data.size() - full;
  for (std::size_t i = 0; i < rest; ++i) tail[i] = bytes[full + i];
  tail[rest] = 0x80;
  std::size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  for (std::size_t i = 0; i < tail_len; i += 64) compress(h, tail + i);

  std::string digest(32, '\0');
  for (int i = 0; i < 32; ++i) digest[i] = static_cast<char>(h[i / 4] >> (24 - 8 * (i % 4)));
  return digest;
}

std::string to_hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace tofa::net
