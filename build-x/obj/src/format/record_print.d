build-x/obj/src/format/record_print.o: src/format/record_print.c \
 src/format/fields.h include/hipvis/api.h include/hipvis/api_cuda.h \
 src/format/json_str.h src/format/names.h src/format/rec_layout.h \
 include/hipvis/trace.h src/format/record_print.h include/hipvis/reader.h
src/format/fields.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/format/json_str.h:
src/format/names.h:
src/format/rec_layout.h:
include/hipvis/trace.h:
src/format/record_print.h:
include/hipvis/reader.h:
