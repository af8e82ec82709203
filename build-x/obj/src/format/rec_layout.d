build-x/obj/src/format/rec_layout.o: src/format/rec_layout.c \
 src/format/rec_layout.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h
src/format/rec_layout.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
