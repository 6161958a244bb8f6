/* hostile.c calls libscout with hostile input: NULL and empty strings in
 * every position, a NUL byte inside a buffer, strings not in UTF-8, huge
 * and deeply nested inputs, unknown names, bad options, odd call ids,
 * scout_free(NULL), and the same from many threads at once. Every call
 * must return an Envelope (a JSON object with a status) that says what to
 * fix; it prints "hostile: ok" and exits 0 when every check passed. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libscout.h"

static const char *root;
static int failures;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, const char *env) {
    pthread_mutex_lock(&mu);
    fprintf(stderr, "FAIL %s: %.300s\n", what, env ? env : "(NULL)");
    failures++;
    pthread_mutex_unlock(&mu);
}

/* check frees env after checking that it is an Envelope with status and
 * contains want (when want is not NULL) and is at most max bytes. */
static void check(const char *what, char *env, const char *status, const char *want, size_t max) {
    char st[64];
    snprintf(st, sizeof st, "{\"status\":\"%s\"", status);
    if (env == NULL || strncmp(env, st, strlen(st)) != 0 || env[strlen(env) - 1] != '}') {
        fail(what, env);
    } else if (want != NULL && strstr(env, want) == NULL) {
        fail(what, env);
    } else if (max > 0 && strlen(env) > max) {
        char m[128];
        snprintf(m, sizeof m, "%s: %zu bytes, want at most %zu", what, strlen(env), max);
        fail(m, NULL);
    }
    scout_free(env);
}

static char *filled(const char *head, char c, size_t n, const char *tail) {
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + n + t + 1);
    memcpy(s, head, h);
    memset(s + h, c, n);
    memcpy(s + h + n, tail, t + 1);
    return s;
}

/* nested is n '[' then n ']' inside {"path": ...}. */
static char *nested(size_t n) {
    char *s = malloc(n * 2 + 16);
    char *p = s + sprintf(s, "{\"path\":");
    memset(p, '[', n);
    memset(p + n, ']', n);
    strcpy(p + 2 * n, "}");
    return s;
}

static void run_checks(int all) {
    static const char *ts[] = {NULL, "", "pi", "amplifier", "standardized", "nope", "\xff"};
    static const char *tools[] = {NULL, "", "read", "grep", "Glob", "nope", "\xc3\x28"};
    static const char *args[] = {NULL, "", "{}", "{bad", "[1]", "null", "\xfe", "{\"path\": \"a.txt\\u0000b\"}"};
    static const char *opts[] = {NULL, "", "{}", "{bad", "[]", "null", "{\"style\": 3}", "{\"Style\": \"plain\"}", "{\"call_id\": -1}", "\xff"};
    /* Every combination returns an Envelope (in the main thread only). */
    for (size_t a = 0; all && a < sizeof ts / sizeof *ts; a++)
        for (size_t b = 0; b < sizeof tools / sizeof *tools; b++)
            for (size_t c = 0; c < sizeof args / sizeof *args; c++)
                for (size_t d = 0; d < sizeof opts / sizeof *opts; d++) {
                    char *env = scout_call_opts(ts[a], tools[b], args[c], d % 2 ? root : NULL, opts[d]);
                    if (env == NULL || strncmp(env, "{\"status\":\"", 11) != 0)
                        fail("combination", env);
                    scout_free(env);
                }
    check("NULL tool", scout_call_opts(NULL, NULL, NULL, NULL, NULL), "error", "tool is NULL", 0);
    check("empty tool", scout_call("pi", "", "{}", root), "error", "Unknown tool ''", 0);
    check("NULL everything but the tool", scout_call_opts(NULL, "find", NULL, NULL, NULL), "error", "must contain non-empty globs", 0);
    check("non-UTF-8 toolset", scout_call("\xff", "find", "{}", root), "error", "toolset is not valid UTF-8", 0);
    check("non-UTF-8 tool", scout_call("pi", "\xff", "{}", root), "error", "tool is not valid UTF-8", 0);
    check("non-UTF-8 root", scout_call("pi", "find", "{}", "\xff"), "error", "root is not valid UTF-8", 0);
    check("non-UTF-8 options", scout_call_opts("pi", "find", "{}", root, "\xff"), "error", "options is not valid UTF-8", 0);
    /* A NUL byte ends a C string: what follows it is not read. */
    static const char nul_args[] = "{\"path\": \"a.txt\"}\0garbage";
    check("a NUL byte inside the arguments' buffer", scout_call("pi", "read", nul_args, root), "success", "one", 0);
    check("an escaped NUL in a path", scout_call("pi", "read", "{\"path\": \"a.txt\\u0000b\"}", root), "error", "NUL byte", 0);
    /* A UTF-8 byte order mark before the JSON is skipped, as scout mcp does. */
    check("a byte order mark before the arguments", scout_call("pi", "read", "\xef\xbb\xbf{\"path\": \"a.txt\"}", root), "success", "one", 0);
    check("a byte order mark before the options", scout_call_opts("pi", "read", "{\"path\": \"a.txt\"}", root, "\xef\xbb\xbf{\"style\": \"numbered\"}"), "success", "1|one", 0);
    check("unknown toolset", scout_call("nope", "read", "{}", root), "error", "Unknown toolset 'nope'", 0);
    check("unknown tool", scout_call("pi", "nope", "{}", root), "error", "Unknown tool 'nope'", 0);
    check("options not an object", scout_call_opts("pi", "read", "{}", root, "[1]"), "error", "options must be a JSON object", 0);
    check("options null", scout_call_opts("pi", "read", "{}", root, "null"), "error", "options must be a JSON object", 0);
    check("two options objects", scout_call_opts("pi", "read", "{}", root, "{} {}"), "error", "options must be a JSON object", 0);

    check("cancel 0", scout_cancel(0), "error", "call ids are positive integers", 0);
    check("cancel -1", scout_cancel(-1), "error", "INVALID_PARAM", 0);
    check("cancel LLONG_MIN", scout_cancel(LLONG_MIN), "error", "INVALID_PARAM", 0);
    check("cancel LLONG_MAX", scout_cancel(LLONG_MAX), "error", "NOT_FOUND", 0);
    scout_free(NULL);
    if (!all) /* the threads leave them out: 8 × 100 MB at once */
        return;
    /* Huge inputs: refused or answered with a short message. */
    char *big = filled("", 'x', 20 << 20, "");
    check("a 20 MiB toolset", scout_call(big, "read", "{}", root), "error", "bytes)'", 4096);
    check("a 20 MiB tool", scout_call("pi", big, "{}", root), "error", "bytes)'", 4096);
    check("a 20 MiB root", scout_call("pi", "read", "{}", big), "error", "bytes)'", 4096);
    char *s = filled("{\"style\": \"", 'x', 20 << 20, "\"}");
    check("20 MiB of options", scout_call_opts("pi", "read", "{}", root, s), "error", "over the limit of 64 KiB", 4096);
    free(s);
    s = filled("{\"path\": \"a.txt\", \"x\": \"", 'x', 17 << 20, "\"}");
    check("17 MiB of arguments", scout_call("pi", "read", s, root), "error", "over the limit of 16 MiB", 4096);
    free(s);
    free(big);
    s = nested(1000000);
    check("arguments nested a million deep", scout_call("pi", "read", s, root), "error", "not valid JSON", 0);
    free(s);
    s = nested(100);
    check("arguments nested a hundred deep", scout_call("pi", "read", s, root), "error", "INVALID_PARAM", 0);
    free(s);
}

static void *worker(void *arg) {
    (void)arg;
    run_checks(0);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: hostile ROOT\n");
        return 2;
    }
    root = argv[1];
    run_checks(1);
    enum { N = 8 };
    pthread_t t[N];
    for (int i = 0; i < N; i++) /* the checks again, from eight threads at once */
        if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "FAIL pthread_create\n");
            return 1;
        }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    if (failures) {
        fprintf(stderr, "hostile: %d failures\n", failures);
        return 1;
    }
    printf("hostile: ok\n");
    return 0;
}
