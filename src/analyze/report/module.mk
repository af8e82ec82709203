# The HTML report's script and style, compiled into libhvanalyze.a as C
# strings by embed.py (python3 is already a build dependency of the tests).
HTML_ASSETS := src/analyze/report/html/report.css src/analyze/report/html/report.js
HTML_GEN    := $(BUILD)/gen/html_assets.c

$(HTML_GEN): src/analyze/report/html/embed.py $(HTML_ASSETS)
	@mkdir -p $(@D)
	python3 src/analyze/report/html/embed.py $@ hv_html_css=src/analyze/report/html/report.css \
	    hv_html_js=src/analyze/report/html/report.js

$(BUILD)/libhvanalyze.a: $(call obj,$(HTML_GEN))

# gzout.c (--perfetto FILE.gz): whatever links hipvis-analyze.o links these.
REPORT_LIBS := -lz
