build-x/obj/src/format/names.o: src/format/names.c src/format/names.h \
 include/hipvis/reader.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h
src/format/names.h:
include/hipvis/reader.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
