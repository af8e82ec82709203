build-x/obj/src/format/fields.o: src/format/fields.c src/format/fields.h \
 include/hipvis/api.h include/hipvis/api_cuda.h src/format/names.h \
 include/hipvis/trace.h
src/format/fields.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/format/names.h:
include/hipvis/trace.h:
