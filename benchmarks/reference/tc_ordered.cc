// Reference for benchmarks/cliques.py: a plain C++/OpenMP ordered triangle count, the kind of
// program users would otherwise write. Whole process from the text file: read (fread + hand
// parser), build a deduplicated symmetric CSR, orient by (degree, id), count with a per-thread
// marker array. Prints: triangles, read+build seconds, count seconds.
// Build: g++ -O3 -march=native -fopenmp tc_ordered.cc -o tc_ordered
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <omp.h>

using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: tc_ordered FILE\n"); return 2; }
  auto t0 = Clock::now();
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) { std::perror(argv[1]); return 2; }
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  std::vector<char> buf(size + 1);
  if (std::fread(buf.data(), 1, size, f) != (size_t)size) { std::fprintf(stderr, "short read\n"); return 2; }
  std::fclose(f);
  buf[size] = '\n';
  std::vector<int64_t> src, dst;
  src.reserve(size / 12); dst.reserve(size / 12);
  const char* p = buf.data();
  const char* end = p + size;
  int64_t maxid = -1;
  while (p < end) {
    if (*p == '#' || *p == '%') { while (*p != '\n') ++p; ++p; continue; }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
    if (p >= end) break;
    int64_t a = 0, b = 0;
    while (*p >= '0' && *p <= '9') a = a * 10 + (*p++ - '0');
    while (*p == ' ' || *p == '\t' || *p == ',') ++p;
    while (*p >= '0' && *p <= '9') b = b * 10 + (*p++ - '0');
    while (*p != '\n') ++p;
    ++p;
    if (a == b) continue;
    src.push_back(a); dst.push_back(b);
    maxid = std::max(maxid, std::max(a, b));
  }
  int64_t n = maxid + 1;
  std::vector<int64_t> ptr(n + 1, 0);
  for (size_t i = 0; i < src.size(); ++i) { ptr[src[i] + 1]++; ptr[dst[i] + 1]++; }
  for (int64_t i = 0; i < n; ++i) ptr[i + 1] += ptr[i];
  std::vector<int32_t> adj(ptr[n]);
  std::vector<int64_t> fill(ptr.begin(), ptr.end() - 1);
  for (size_t i = 0; i < src.size(); ++i) { adj[fill[src[i]]++] = dst[i]; adj[fill[dst[i]]++] = src[i]; }
  std::vector<int64_t> deg(n);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < n; ++u) {
    std::sort(adj.begin() + ptr[u], adj.begin() + ptr[u + 1]);
    deg[u] = std::unique(adj.begin() + ptr[u], adj.begin() + ptr[u + 1]) - (adj.begin() + ptr[u]);
  }
  // orient u -> v iff (deg u, u) < (deg v, v)
  std::vector<int64_t> optr(n + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < n; ++u) {
    int64_t c = 0;
    for (int64_t j = ptr[u]; j < ptr[u] + deg[u]; ++j) {
      int64_t v = adj[j];
      if (deg[v] > deg[u] || (deg[v] == deg[u] && v > u)) ++c;
    }
    optr[u + 1] = c;
  }
  for (int64_t i = 0; i < n; ++i) optr[i + 1] += optr[i];
  std::vector<int32_t> oadj(optr[n]);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < n; ++u) {
    int64_t q = optr[u];
    for (int64_t j = ptr[u]; j < ptr[u] + deg[u]; ++j) {
      int64_t v = adj[j];
      if (deg[v] > deg[u] || (deg[v] == deg[u] && v > u)) oadj[q++] = v;
    }
  }
  auto t1 = Clock::now();
  int64_t total = 0;
#pragma omp parallel reduction(+ : total)
  {
    std::vector<char> mark(n, 0);
#pragma omp for schedule(dynamic, 64)
    for (int64_t u = 0; u < n; ++u) {
      for (int64_t j = optr[u]; j < optr[u + 1]; ++j) mark[oadj[j]] = 1;
      for (int64_t j = optr[u]; j < optr[u + 1]; ++j) {
        int64_t v = oadj[j];
        for (int64_t l = optr[v]; l < optr[v + 1]; ++l) total += mark[oadj[l]];
      }
      for (int64_t j = optr[u]; j < optr[u + 1]; ++j) mark[oadj[j]] = 0;
    }
  }
  auto t2 = Clock::now();
  std::printf("%lld %.4f %.4f\n", (long long)total,
              std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
  return 0;
}
