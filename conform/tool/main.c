/* sdkc-conform: the conformance checker as its own program. `sdkc conform ARGS` runs it from the
 * directory of the sdkc binary, so that compile and generate do not load libcurl and its
 * dependencies (about 4 ms of every run). Same arguments, same exit statuses. */
#include "sdkc/conform.h"

int main(int argc, char **argv)
{
    return sdkc_conform_main(argc, argv);
}
