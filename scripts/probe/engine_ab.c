/* Times two builds of the meaning engine on the same questions, taking turns: round by round each build embeds
 * every question once (after a warm-up), so load falls on both alike. Prints each question's p50 per build and
 * the ratio. Built and run by scripts/probe/engine-ab.sh.
 *
 *   engine-ab A.so B.so MODEL.bin [ROUNDS]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void *(*load_fn)(const char *);
typedef int (*embed_fn)(void *, const char *, int, float *);
typedef int (*count_fn)(void *, const char *, int);

static const char *questions[] = {
    "sourdough",
    "kubernetes liveness probe",
    "why does my container keep rebooting",
    "how do I make my bread less gummy",
    "what did I learn about running in hot weather last summer when training for the marathon",
    "the laptop crashed yesterday, how do I see what went wrong before the reboot and which logs should I read first",
};
#define NQ ((int)(sizeof questions / sizeof *questions))
#define MAXR 1000

struct build { const char *path; void *model; embed_fn embed; count_fn count; };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int open_build(struct build *b, const char *model) {
    void *h = dlopen(b->path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "engine-ab: %s\n", dlerror()); return -1; }
    load_fn load = (load_fn)dlsym(h, "e5_load");
    b->embed = (embed_fn)dlsym(h, "e5_embed");
    b->count = (count_fn)dlsym(h, "e5_token_count");
    if (!load || !b->embed || !b->count) { fprintf(stderr, "engine-ab: %s is not the engine\n", b->path); return -1; }
    b->model = load(model);
    if (!b->model) { fprintf(stderr, "engine-ab: %s could not load %s\n", b->path, model); return -1; }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: engine-ab A.so B.so MODEL.bin [ROUNDS]\n"); return 2; }
    int rounds = argc > 4 ? atoi(argv[4]) : 60;
    if (rounds < 1 || rounds > MAXR) { fprintf(stderr, "engine-ab: ROUNDS is 1 to %d\n", MAXR); return 2; }
    struct build builds[2] = {{argv[1]}, {argv[2]}};
    for (int i = 0; i < 2; i++)
        if (open_build(&builds[i], argv[3]) != 0) return 2;
    static double t[2][NQ][MAXR];
    float out[384];
    for (int r = -1; r < rounds; r++)          /* round -1 warms both up */
        for (int k = 0; k < 2; k++) {
            int i = (r & 1) ? 1 - k : k;        /* the order alternates too */
            for (int q = 0; q < NQ; q++) {
                double a = now_ms();
                if (builds[i].embed(builds[i].model, questions[q], 1, out) != 0) {
                    fprintf(stderr, "engine-ab: %s failed to embed\n", builds[i].path);
                    return 2;
                }
                if (r >= 0) t[i][q][r] = now_ms() - a;
            }
        }
    printf("| question (tokens) | A p50 ms | B p50 ms | B / A |\n|---|---:|---:|---:|\n");
    for (int q = 0; q < NQ; q++) {
        for (int i = 0; i < 2; i++) qsort(t[i][q], rounds, sizeof(double), cmp);
        double a = t[0][q][rounds / 2], b = t[1][q][rounds / 2];
        printf("| %.40s (%d) | %.2f | %.2f | %.2f |\n", questions[q],
               builds[0].count(builds[0].model, questions[q], 1), a, b, b / a);
    }
    printf("\nA: %s\nB: %s\n%d rounds, taking turns\n", builds[0].path, builds[1].path, rounds);
    return 0;
}
