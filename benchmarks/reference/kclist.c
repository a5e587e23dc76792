/* Reference for benchmarks/cliques.py: a k-clique lister after the algorithm of Danisch, Balalau
 * and Sozio, "Listing k-cliques in sparse real-world graphs" (WWW 2018), in plain C with OpenMP.
 *
 *   1. read the edge list (fread + hand parser), build a deduplicated symmetric CSR;
 *   2. degeneracy ordering by bucket peeling (repeatedly remove a vertex of minimum degree);
 *   3. the DAG u -> v iff u is removed before v, vertices renamed by their removal rank;
 *   4. for every vertex u (OpenMP, dynamic schedule, one vertex at a time): the subgraph induced
 *      by its out-neighbours, renamed 0..d-1, then the paper's recursive listing: level l holds
 *      the vertex set V_l (label l) and every vertex's adjacency row is rearranged so that its
 *      first deg_l(v) entries are its out-neighbours inside V_l. For each v in V_l, V_{l-1} is
 *      those entries; listing(l - 1) runs on them, labels are restored afterwards. At l = 2 every
 *      arc of the level is one k-clique, and each is visited (counted one by one).
 *
 * Prints: k-cliques, read+build seconds, ordering+DAG seconds, listing seconds.
 * Build: cc -O3 -march=native -fopenmp kclist.c -o kclist       Run: kclist K FILE
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now(void) { return omp_get_wtime(); }

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
  return p;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Per-thread state of the listing: one subgraph of at most `cap` vertices. */
typedef struct {
  int k, cap;
  int32_t *loc;   /* global vertex -> local id + 1 (0: not in the subgraph); size n */
  int32_t *adj;   /* row i at adj[i * cap] */
  int32_t *deg;   /* deg[l * cap + i]: out-degree of local vertex i inside V_l */
  int32_t *nodes; /* nodes[l * cap ...]: the vertices of V_l */
  int32_t *size;  /* size[l] = |V_l| */
  uint8_t *lab;   /* lab[i] = lowest level whose vertex set holds i */
  int64_t count;
} Work;

static void listing(Work *w, int l) {
  const int cap = w->cap;
  int32_t *Vl = w->nodes + (size_t)l * cap;
  int32_t nl = w->size[l];
  if (l == 2) {
    for (int32_t a = 0; a < nl; a++) {
      int32_t v = Vl[a];
      int32_t dv = w->deg[2 * cap + v];
      for (int32_t j = 0; j < dv; j++) w->count++;  /* the arc (v, adj[v][j]) closes one k-clique */
    }
    return;
  }
  int32_t *Vn = w->nodes + (size_t)(l - 1) * cap;
  for (int32_t a = 0; a < nl; a++) {
    int32_t v = Vl[a];
    int32_t dv = w->deg[l * cap + v];
    if (dv < l - 1) continue; /* too few out-neighbours to complete a clique */
    /* V_{l-1}: v's out-neighbours inside V_l */
    int32_t *row = w->adj + (size_t)v * cap;
    int32_t m = 0;
    for (int32_t j = 0; j < dv; j++) {
      int32_t x = row[j];
      Vn[m++] = x;
      w->lab[x] = (uint8_t)(l - 1);
    }
    w->size[l - 1] = m;
    /* rearrange each row so its out-neighbours inside V_{l-1} come first */
    for (int32_t b = 0; b < m; b++) {
      int32_t x = Vn[b];
      int32_t *rx = w->adj + (size_t)x * cap;
      int32_t dx = w->deg[l * cap + x];
      int32_t keep = 0;
      for (int32_t j = 0; j < dx; j++) {
        int32_t y = rx[j];
        if (w->lab[y] == l - 1) {
          rx[j] = rx[keep];
          rx[keep] = y;
          keep++;
        }
      }
      w->deg[(l - 1) * cap + x] = keep;
    }
    listing(w, l - 1);
    for (int32_t b = 0; b < m; b++) w->lab[Vn[b]] = (uint8_t)l;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: kclist K FILE\n"); return 2; }
  int k = atoi(argv[1]);
  if (k < 3) { fprintf(stderr, "k must be >= 3\n"); return 2; }
  double t0 = now();
  FILE *f = fopen(argv[2], "rb");
  if (!f) { perror(argv[2]); return 2; }
  fseek(f, 0, SEEK_END);
  long fsize = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = xmalloc(fsize + 1);
  if (fread(buf, 1, fsize, f) != (size_t)fsize) { fprintf(stderr, "short read\n"); return 2; }
  fclose(f);
  buf[fsize] = '\n';
  size_t cap_e = fsize / 8 + 16, m = 0;
  int64_t *src = xmalloc(cap_e * sizeof *src), *dst = xmalloc(cap_e * sizeof *dst);
  int64_t maxid = -1;
  const char *p = buf, *end = buf + fsize;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
    if (p >= end) break;
    if (*p == '#' || *p == '%') { while (*p != '\n') ++p; continue; }
    int64_t a = 0, b = 0;
    while (*p >= '0' && *p <= '9') a = a * 10 + (*p++ - '0');
    while (*p == ' ' || *p == '\t' || *p == ',') ++p;
    while (*p >= '0' && *p <= '9') b = b * 10 + (*p++ - '0');
    while (*p != '\n') ++p;
    if (a == b) continue;
    if (m == cap_e) {
      cap_e *= 2;
      src = realloc(src, cap_e * sizeof *src);
      dst = realloc(dst, cap_e * sizeof *dst);
      if (!src || !dst) { fprintf(stderr, "out of memory\n"); return 2; }
    }
    src[m] = a; dst[m] = b; m++;
    if (a > maxid) maxid = a;
    if (b > maxid) maxid = b;
  }
  free(buf);
  int64_t n = maxid + 1;
  int64_t *ptr = calloc(n + 1, sizeof *ptr);
  for (size_t i = 0; i < m; i++) { ptr[src[i] + 1]++; ptr[dst[i] + 1]++; }
  for (int64_t i = 0; i < n; i++) ptr[i + 1] += ptr[i];
  int32_t *adj = xmalloc(ptr[n] * sizeof *adj);
  int64_t *fill = xmalloc((n + 1) * sizeof *fill);
  memcpy(fill, ptr, n * sizeof *fill);
  for (size_t i = 0; i < m; i++) { adj[fill[src[i]]++] = (int32_t)dst[i]; adj[fill[dst[i]]++] = (int32_t)src[i]; }
  free(src); free(dst);
  int64_t *deg = xmalloc((n + 1) * sizeof *deg);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < n; u++) {
    int32_t *r = adj + ptr[u];
    int64_t d = ptr[u + 1] - ptr[u], q = 0;
    qsort(r, d, sizeof *r, cmp_i32);
    for (int64_t j = 0; j < d; j++)
      if (q == 0 || r[j] != r[q - 1]) r[q++] = r[j];
    deg[u] = q;
  }
  double t1 = now();

  /* degeneracy ordering: bucket peeling (vert sorted by current degree, bin[d] = first slot of
   * degree d); rank[u] = removal position */
  int64_t maxdeg = 0;
  for (int64_t u = 0; u < n; u++) if (deg[u] > maxdeg) maxdeg = deg[u];
  int64_t *bin = calloc(maxdeg + 2, sizeof *bin);
  int64_t *vert = xmalloc(n * sizeof *vert), *pos = xmalloc(n * sizeof *pos);
  int64_t *cur = xmalloc(n * sizeof *cur), *rank = xmalloc(n * sizeof *rank);
  for (int64_t u = 0; u < n; u++) { cur[u] = deg[u]; bin[deg[u] + 1]++; }
  for (int64_t d = 0; d <= maxdeg; d++) bin[d + 1] += bin[d];
  int64_t *nxt = xmalloc((maxdeg + 1) * sizeof *nxt);
  memcpy(nxt, bin, (maxdeg + 1) * sizeof *nxt);
  for (int64_t u = 0; u < n; u++) { pos[u] = nxt[deg[u]]++; vert[pos[u]] = u; }
  free(nxt);
  for (int64_t i = 0; i < n; i++) {
    int64_t u = vert[i];
    rank[u] = i;
    for (int64_t j = ptr[u]; j < ptr[u] + deg[u]; j++) {
      int64_t x = adj[j];
      if (cur[x] > cur[u]) {
        int64_t dx = cur[x], first = bin[dx], y = vert[first];
        if (y != x) { vert[pos[x]] = y; pos[y] = pos[x]; vert[first] = x; pos[x] = first; }
        bin[dx]++;
        cur[x]--;
      }
    }
  }
  /* the DAG in rank space: row rank[u] holds rank[v] for every neighbour v removed after u */
  int64_t *optr = calloc(n + 1, sizeof *optr);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < n; u++) {
    int64_t c = 0;
    for (int64_t j = ptr[u]; j < ptr[u] + deg[u]; j++) c += rank[adj[j]] > rank[u];
    optr[rank[u] + 1] = c;
  }
  for (int64_t i = 0; i < n; i++) optr[i + 1] += optr[i];
  int32_t *oadj = xmalloc((optr[n] + 1) * sizeof *oadj);
  int cap = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : cap)
  for (int64_t u = 0; u < n; u++) {
    int64_t q = optr[rank[u]];
    for (int64_t j = ptr[u]; j < ptr[u] + deg[u]; j++)
      if (rank[adj[j]] > rank[u]) oadj[q++] = (int32_t)rank[adj[j]];
    int d = (int)(q - optr[rank[u]]);
    if (d > cap) cap = d;
  }
  double t2 = now();

  int64_t total = 0;
#pragma omp parallel reduction(+ : total)
  {
    Work w;
    w.k = k;
    w.cap = cap;
    w.loc = calloc(n, sizeof *w.loc);
    w.adj = xmalloc((size_t)cap * cap * sizeof *w.adj + 4);
    w.deg = xmalloc((size_t)(k + 1) * cap * sizeof *w.deg + 4);
    w.nodes = xmalloc((size_t)(k + 1) * cap * sizeof *w.nodes + 4);
    w.size = xmalloc((k + 1) * sizeof *w.size);
    w.lab = xmalloc(cap + 1);
    w.count = 0;
#pragma omp for schedule(dynamic, 1)
    for (int64_t u = 0; u < n; u++) {
      int32_t d = (int32_t)(optr[u + 1] - optr[u]);
      if (d < k - 1) continue;
      const int32_t *out = oadj + optr[u];
      int l = k - 1;
      /* the subgraph induced by u's out-neighbours, renamed 0..d-1: V_{k-1} */
      for (int32_t i = 0; i < d; i++) {
        w.loc[out[i]] = i + 1;
        w.nodes[(size_t)l * cap + i] = i;
        w.lab[i] = (uint8_t)l;
      }
      w.size[l] = d;
      for (int32_t i = 0; i < d; i++) {
        int32_t v = out[i], c = 0;
        int32_t *row = w.adj + (size_t)i * cap;
        for (int64_t j = optr[v]; j < optr[v + 1]; j++) {
          int32_t x = w.loc[oadj[j]];
          if (x) row[c++] = x - 1;
        }
        w.deg[l * cap + i] = c;
      }
      listing(&w, l);
      for (int32_t i = 0; i < d; i++) w.loc[out[i]] = 0;
    }
    total += w.count;
    free(w.loc); free(w.adj); free(w.deg); free(w.nodes); free(w.size); free(w.lab);
  }
  double t3 = now();
  printf("%lld %.4f %.4f %.4f\n", (long long)total, t1 - t0, t2 - t1, t3 - t2);
  return 0;
}
