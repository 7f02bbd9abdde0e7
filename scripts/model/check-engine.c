/* Compares two builds of the meaning engine on the same texts: the patched one Engram installs and the source as
 * published. Run by scripts/install-model.sh before it installs the patched build; prints the lowest cosine
 * between the two builds' vectors and exits 1 when it is below the bound, so a kernel that changes what a text
 * means is never installed.
 *
 *   check-engine PATCHED.so PUBLISHED.so MODEL.bin [MIN_COSINE]
 *   check-engine --save OUT.vec ENGINE.so MODEL.bin      (the vectors, to compare with from another process)
 *
 * Either engine of the comparison may be a .vec file saved before: `make test-deb` saves the packaged engine's
 * vectors natively, then compares them with the same engine run under an emulated processor without AVX2. An engine
 * that says which of its builds it runs (Engram's libe5.so: e5_engram_build) has that printed.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *(*load_fn)(const char *);
typedef int (*embed_fn)(void *, const char *, int, float *);
typedef int (*batch_fn)(void *, const char **, int, int, float *);
typedef const char *(*build_fn)(void);

static const char *texts[] = {
    "sourdough",
    "why does my container keep rebooting",
    "what did I learn about running in hot weather last summer when training for the marathon",
    "Kubernetes restarts a pod when its liveness probe fails too often; raise failureThreshold.",
    "Ж ü 日本語 ✓ — naïve café, Straße, ½ ≠ 0.5",
    "<b>bold</b> ${exec rm -rf ~} %{F#f00} \x1f separators",
    "# Sourdough\n\nFeed the starter at 1:5:5 the night before. The levain peaks after about eight hours at 24 °C; "
    "the dough wants 75% hydration, an autolyse of an hour, four sets of folds, and a cold retard overnight. "
    "Bake covered at 250 °C for twenty minutes, then uncovered until the crust is deep brown.",
};
#define N ((int)(sizeof texts / sizeof *texts))
#define DIM 384

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static int run(const char *lib, const char *model, float *out) {
    if (ends_with(lib, ".vec")) {
        FILE *f = fopen(lib, "rb");
        size_t n = f ? fread(out, sizeof(float), 2 * N * DIM, f) : 0;
        if (f) fclose(f);
        if (n != 2 * N * DIM) { fprintf(stderr, "check-engine: %s does not hold %d vectors\n", lib, 2 * N); return -1; }
        return 0;
    }
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "check-engine: %s\n", dlerror()); return -1; }
    load_fn load = (load_fn)dlsym(h, "e5_load");
    embed_fn embed = (embed_fn)dlsym(h, "e5_embed");
    batch_fn batch = (batch_fn)dlsym(h, "e5_embed_batch");
    if (!load || !embed || !batch) { fprintf(stderr, "check-engine: %s lacks e5_load/e5_embed/e5_embed_batch\n", lib); return -1; }
    build_fn build = (build_fn)dlsym(h, "e5_engram_build");
    if (build) printf("%s runs its %s build\n", lib, build());
    void *m = load(model);
    if (!m) { fprintf(stderr, "check-engine: %s could not load %s\n", lib, model); return -1; }
    /* each text alone as a question, then all of them as one batch of passages */
    for (int i = 0; i < N; i++)
        if (embed(m, texts[i], 1, out + (size_t)i * DIM) != 0) { fprintf(stderr, "check-engine: embed failed\n"); return -1; }
    if (batch(m, texts, N, 0, out + (size_t)N * DIM) != 0) { fprintf(stderr, "check-engine: batch failed\n"); return -1; }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--save") == 0) {
        static float v[2 * N * DIM];
        if (run(argv[3], argv[4], v) != 0) return 2;
        FILE *f = fopen(argv[2], "wb");
        if (!f || fwrite(v, sizeof(float), 2 * N * DIM, f) != 2 * N * DIM || fclose(f) != 0) {
            fprintf(stderr, "check-engine: cannot write %s\n", argv[2]);
            return 2;
        }
        return 0;
    }
    if (argc < 4) { fprintf(stderr, "usage: check-engine PATCHED.so PUBLISHED.so MODEL.bin [MIN_COSINE]\n"); return 2; }
    double bound = argc > 4 ? atof(argv[4]) : 0.9999;
    static float a[2 * N * DIM], b[2 * N * DIM];
    if (run(argv[1], argv[3], a) != 0 || run(argv[2], argv[3], b) != 0) return 2;
    double worst = 1.0; int worst_i = 0;
    for (int i = 0; i < 2 * N; i++) {
        double dot = 0, na = 0, nb = 0;
        for (int j = 0; j < DIM; j++) {
            double x = a[(size_t)i * DIM + j], y = b[(size_t)i * DIM + j];
            dot += x * y; na += x * x; nb += y * y;
        }
        double c = (na > 0 && nb > 0) ? dot / sqrt(na * nb) : 0;
        if (!(c >= worst)) { worst = c; worst_i = i; }
    }
    printf("lowest cosine between the builds: %.6f (%s %d of %d)\n", worst, worst_i < N ? "question" : "passage",
           worst_i % N + 1, N);
    return worst >= bound ? 0 : 1;
}
