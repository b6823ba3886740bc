/* Test helper: parses --arg specs with the shared library and prints what a host would
 * upload, so the input formats (iota, fill, rand, half, vec3 padding...) can be checked
 * exactly without a device. Buffers print as k2s-run prints results; PODs as hex bytes. */
#include "argspec.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    k2s_set_prog("k2s-argspec-dump");
    const char **specs = NULL, *positional;
    size_t n = 0;
    const struct k2s_option opts[] = {{"--arg", NULL, &specs, &n, NULL}};
    struct k2s_arg *args;
    if (!k2s_parse_cli(argc, argv, opts, 1, &positional) || !k2s_parse_args(specs, n, &args)) {
        free(specs);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct k2s_arg *a = &args[i];
        if (a->kind == K2S_ARG_BUFFER) {
            k2s_print_buffer(stdout, (unsigned)i, a, a->bytes);
            continue;
        }
        if (a->kind == K2S_ARG_LOCAL) {
            printf("local %zu: %zu\n", i, a->size);
            continue;
        }
        printf("pod %zu:", i);
        for (size_t b = 0; b < a->size; b++)
            printf(" %02x", a->bytes[b]);
        putchar('\n');
    }
    k2s_free_args(args, n);
    free(specs);
    return 0;
}
