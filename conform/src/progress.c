/* progress.c - one progress line on a terminal (sdkc_conform_options.progress): operations done
 * of those included, and deviations so far, redrawn in place with \r; nothing when progress is
 * NULL (the caller passes a terminal only: a pipe or file never gets it). */
#include "probe_internal.h"

void conform_progress(runner *rn)
{
    FILE *f = rn->opts->progress;
    if (!f)
        return;
    size_t total = 0;
    for (size_t i = 0; i < rn->ir->nops; i++)
        total += conform_included(rn->opts, rn->ir->ops[i].id);
    size_t devs = sdkc_conform_report_deviations(rn->r);
    /* \033[K clears what a longer line before left */
    fprintf(f, "\rconform: %zu/%zu operations, %zu deviation%s\033[K", rn->ndone, total, devs,
            devs == 1 ? "" : "s");
    fflush(f);
    rn->progress_drawn = true;
}

void conform_progress_clear(runner *rn)
{
    if (!rn->progress_drawn)
        return;
    fputs("\r\033[K", rn->opts->progress);
    fflush(rn->opts->progress);
    rn->progress_drawn = false;
}
