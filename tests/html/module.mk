# tests/html: the HTML report and the Perfetto export in a real browser
# (Debian's chromium, headless, driven over its DevTools protocol by
# tests/html/cdp.py: Python stdlib only). Optimised build only: the pages
# are the same in both trees, and the sanitizer build's libhipvis.so needs
# the ASan runtime first in the traced process.
HTML_T := $(BUILD)/tests/html

$(HTML_T)/mktrace: $(call obj,tests/html/mktrace.c tests/analyze/tbuild.c tests/analyze/scenarios.c) \
                   $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd

HTML_DEPS := $(HTML_T)/mktrace $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump $(LIBHIPVIS) \
             $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop \
             $(BUILD)/tests/apps/decode_kernels-gfx950.hsaco

check-html: $(HTML_DEPS)
	python3 tests/html/test_html.py $(BUILD)

CHECKS += check-html

# Load time of a 1 M-record trace's report in headless Chromium (< 3 s is
# the bar), file sizes of --html and --perfetto for it.
bench-html: $(HTML_DEPS)
	python3 tests/html/bench_html.py $(BUILD)

BENCHES += bench-html

# The exporters themselves, no browser: in both trees, so that ASan/UBSan
# run html.c, perfetto.c, view.c and gzout.c.
check-html-export: $(HTML_T)/mktrace $(BUILD)/hipvis-analyze
	python3 tests/html/check_export.py $(BUILD)

CHECKS     += check-html-export
SAN_CHECKS += check-html-export
