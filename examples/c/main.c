/* Scout from C through the shared library.
 *
 *   go build -buildmode=c-shared -o cshim/libscout.so ./cshim
 *   cc -o /tmp/scout-c examples/c/main.c -Icshim -Lcshim -lscout -lpthread -Wl,-rpath,$PWD/cshim
 *   /tmp/scout-c .
 *
 * It finds Go files under the root, then checks that bad input (NULL and
 * non-UTF-8 strings, arguments or options that are not JSON, a root that
 * does not exist or is a file, an unknown call id) gives error Envelopes,
 * passes host options (text style, no web, a timeout), cancels a running
 * call from another thread, and makes 100 calls from 100 threads. It prints
 * "c example: ok" and exits 0 when every check passed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "libscout.h"

static int failures;

/* expect calls the tool, checks that the Envelope contains want, prints
 * the outcome and frees the Envelope. */
static void expect(const char *what, const char *toolset, const char *tool, const char *args, const char *root, const char *want) {
    char *env = scout_call(toolset, tool, args, root);
    if (env == NULL || strstr(env, want) == NULL) {
        fprintf(stderr, "FAIL %s: want %s in %s\n", what, want, env ? env : "(NULL)");
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
    scout_free(env);
}

/* expect_opts is expect for scout_call_opts. */
static void expect_opts(const char *what, const char *tool, const char *args, const char *root, const char *options, const char *want) {
    char *env = scout_call_opts("pi", tool, args, root, options);
    if (env == NULL || strstr(env, want) == NULL) {
        fprintf(stderr, "FAIL %s: want %s in %s\n", what, want, env ? env : "(NULL)");
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
    scout_free(env);
}

/* is_result reports whether an Envelope is a result: success, or partial
 * when a limit cut it (a large root has more than 200 entries). */
static int is_result(const char *env) {
    return strstr(env, "\"status\":\"success\"") != NULL || strstr(env, "\"status\":\"partial\"") != NULL;
}

/* expect_result checks that scout_call_opts gives a result. */
static void expect_result(const char *what, const char *tool, const char *args, const char *root, const char *options) {
    char *env = scout_call_opts("pi", tool, args, root, options);
    if (env == NULL || !is_result(env)) {
        fprintf(stderr, "FAIL %s: want a success or partial Envelope, got %s\n", what, env ? env : "(NULL)");
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
    scout_free(env);
}

static const char *thread_root;

/* A read of slow_args, a URL that never answers, run by cancel_worker with
 * call_id 7 until main cancels it. */
static char slow_args[128];
static char *canceled_env;

static void *cancel_worker(void *arg) {
    (void)arg;
    canceled_env = scout_call_opts("pi", "read", slow_args, thread_root, "{\"call_id\": 7, \"allow_private_network\": true}");
    return NULL;
}

/* silent_port listens on a loopback port and never accepts: an HTTP request
 * to it waits for an answer that does not come. Returns the port, or -1. */
static int silent_port(int *fd) {
    struct sockaddr_in a;
    socklen_t n = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    *fd = socket(AF_INET, SOCK_STREAM, 0);
    if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(*fd, 16) != 0 ||
        getsockname(*fd, (struct sockaddr *)&a, &n) != 0) {
        return -1;
    }
    return ntohs(a.sin_port);
}

/* The calls the threads make, in turn: all three tools. */
static const char *thread_calls[][2] = {
    {"find", "{\"paths\": [\"*.md\"], \"limit\": 5}"},
    {"search", "{\"pattern\": \"package\", \"paths\": [\"**/*.go\"]}"},
    {"read", "{\"path\": \".\"}"},
};

struct job {
    int index;
    int ok;
};

static void *worker(void *arg) {
    struct job *j = arg;
    const char **call = thread_calls[j->index % 3];
    char *env = scout_call("pi", call[0], call[1], thread_root);
    j->ok = is_result(env);
    scout_free(env);
    return NULL;
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    char *v = scout_version();
    printf("scout %s abi %d\n", v, scout_abi_version());
    scout_free(v);

    char *env = scout_call("pi", "find", "{\"paths\": [\"**/*.go\"], \"limit\": 3}", root);
    printf("%s\n", env);
    if (!is_result(env)) {
        fprintf(stderr, "FAIL find: %s\n", env);
        failures++;
    }
    scout_free(env);

    expect("NULL tool name", NULL, NULL, NULL, NULL, "tool is NULL");
    expect("NULL toolset means pi", NULL, "find", "{\"paths\": [\"**/*.go\"], \"limit\": 1}", root, "{\"status\":\"partial\",\"data\":{\"fileCount\":1,");
    expect("NULL arguments mean {}", "pi", "find", NULL, root, "must contain non-empty globs");
    expect("arguments that are not JSON", "pi", "find", "{not json", root, "INVALID_PARAM");
    expect("arguments that are not an object", "pi", "find", "[1, 2]", root, "must be a JSON object");
    expect("wrong field type", "pi", "find", "{\"paths\": 7}", root, "'paths'");
    expect("non-UTF-8 arguments", "pi", "find", "{\"paths\": [\"\xff\xfe\"]}", root, "json_args is not valid UTF-8");
    expect("non-UTF-8 root", "pi", "find", "{}", "/tmp/\xc3\x28", "root is not valid UTF-8");
    expect("unknown toolset", "nope", "find", "{}", root, "Unknown toolset 'nope'");
    expect("unknown tool", "pi", "nope", "{}", root, "Unknown tool 'nope'");
    expect("root that does not exist", "pi", "find", "{}", "/nonexistent/scout-root", "does not exist");
    expect("root that is a file", "pi", "find", "{}", argv[0], "is not a directory");

    expect_result("options: plain style", "find", "{\"paths\": [\"*.md\"]}", root, "{\"style\": \"plain\"}");
    expect_result("NULL options mean {}", "find", "{\"paths\": [\"*\"]}", root, NULL);
    expect_opts("options that are not JSON", "find", "{}", root, "{bad", "options must be a JSON object");
    expect_opts("unknown option", "find", "{}", root, "{\"colour\": 1}", "unknown field");
    expect_opts("non-UTF-8 options", "find", "{}", root, "{\"style\": \"\xff\"}", "options is not valid UTF-8");
    char *c = scout_cancel(987654);
    if (strstr(c, "NOT_FOUND") == NULL) {
        fprintf(stderr, "FAIL cancel of an unknown id: %s\n", c);
        failures++;
    } else {
        printf("ok   cancel of an unknown id\n");
    }
    scout_free(c);

    thread_root = root;
    int fd;
    int port = silent_port(&fd);
    if (port < 0) {
        fprintf(stderr, "FAIL cannot listen on a loopback port\n");
        return 1;
    }
    snprintf(slow_args, sizeof slow_args, "{\"path\": \"http://127.0.0.1:%d/slow\"}", port);
    expect_opts("no_web", "read", slow_args, root, "{\"no_web\": true}", "UNSUPPORTED");
    /* The server listens on a loopback address: read only with allow_private_network. */
    expect_opts("private address", "read", slow_args, root, "{}", "ACCESS_DENIED");
    expect_opts("timeout_ms", "read", slow_args, root, "{\"timeout_ms\": 200, \"allow_private_network\": true}", "TIMEOUT");
    pthread_t slow;
    if (pthread_create(&slow, NULL, cancel_worker, NULL) != 0) {
        fprintf(stderr, "FAIL pthread_create\n");
        return 1;
    }
    int stopped = 0;
    for (int i = 0; i < 1000 && !stopped; i++) { /* until the call has started: at most 10 s */
        c = scout_cancel(7);
        stopped = strstr(c, "\"status\":\"success\"") != NULL;
        scout_free(c);
        if (!stopped) {
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    pthread_join(slow, NULL);
    close(fd);
    if (!stopped || strstr(canceled_env, "CANCELED") == NULL) {
        fprintf(stderr, "FAIL cancel a running call: %s\n", canceled_env);
        failures++;
    } else {
        printf("ok   cancel a running call\n");
    }
    scout_free(canceled_env);

    /* 100 threads at once, all three tools: the library is safe for concurrent use. */
    enum { N = 100 };
    pthread_t threads[N];
    struct job jobs[N];
    for (int i = 0; i < N; i++) {
        jobs[i].index = i;
        jobs[i].ok = 0;
        if (pthread_create(&threads[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "FAIL pthread_create\n");
            return 1;
        }
    }
    int good = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(threads[i], NULL);
        good += jobs[i].ok;
    }
    if (good != N) {
        fprintf(stderr, "FAIL concurrent calls: %d of %d succeeded\n", good, N);
        failures++;
    } else {
        printf("ok   %d concurrent calls\n", N);
    }

    if (failures) {
        fprintf(stderr, "c example: %d failures\n", failures);
        return 1;
    }
    printf("c example: ok\n");
    return 0;
}
