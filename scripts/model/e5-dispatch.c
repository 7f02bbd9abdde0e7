/* Engram's libe5.so runs on every amd64 processor: the meaning engine is compiled twice into it, once for x86-64's
 * baseline (SSE2, what Debian's amd64 promises) and once for processors with AVX2, FMA and F16C (x86-64-v3: most
 * since 2013-2015, though not every Celeron, Pentium Silver or Atom), and each function of e5.h is bound once, when
 * the library is loaded (a GNU indirect function), to the build this processor can run. The processor is asked
 * through CPUID, so an emulated one (qemu-user -cpu) is answered for truthfully. scripts/install-model.sh builds it.
 *
 * The two builds' functions are renamed at compile time (e5_base_*, e5_avx2_*) and hidden; only e5.h's names and
 * e5_engram_build are exported.
 */
#include "e5.h"

static int has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
}

#define HIDDEN __attribute__((visibility("hidden")))
#define DISPATCH(ret, name, params)                                                                              \
    HIDDEN ret e5_base_##name params;                                                                             \
    HIDDEN ret e5_avx2_##name params;                                                                             \
    static ret (*resolve_##name(void)) params { return has_avx2() ? e5_avx2_##name : e5_base_##name; }           \
    ret e5_##name params __attribute__((ifunc("resolve_" #name)));

DISPATCH(e5_model *, load, (const char *path))
DISPATCH(e5_model *, load_mem, (const void *data, size_t size))
DISPATCH(void, free, (e5_model *m))
DISPATCH(int, token_count, (e5_model *m, const char *text, int is_query))
DISPATCH(int, dim, (const e5_model *m))
DISPATCH(int, embed, (e5_model *m, const char *text, int is_query, float *out))
DISPATCH(int, embed_batch, (e5_model *m, const char **texts, int n, int is_query, float *out))
DISPATCH(int, load_sae, (e5_model *m, const char *path))
DISPATCH(int, sparse_dim, (const e5_model *m))
DISPATCH(int, embed_sparse, (e5_model *m, const char *text, int top_k, int32_t *out_idx, float *out_val))

/* Which build this processor runs: "x86-64-v3" (AVX2, FMA, F16C) or "x86-64" (the baseline). */
const char *e5_engram_build(void) { return has_avx2() ? "x86-64-v3" : "x86-64"; }
