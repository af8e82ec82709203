/* errata_doc: docs/errata.md from the errata table (make errata-doc writes
 * it, make check-errata compares). */
#include <stdio.h>

#include "analyze/errata/errata.h"

int main(void)
{
    hv_errata_markdown(stdout);
    return ferror(stdout) ? 1 : 0;
}
