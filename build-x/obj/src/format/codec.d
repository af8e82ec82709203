build-x/obj/src/format/codec.o: src/format/codec.c src/format/codec.h \
 src/analyze/model/u64map.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/format/rec_layout.h
src/format/codec.h:
src/analyze/model/u64map.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/format/rec_layout.h:
