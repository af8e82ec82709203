build-x/obj/src/format/api_table.o: src/format/api_table.c \
 include/hipvis/api.h include/hipvis/api_cuda.h
include/hipvis/api.h:
include/hipvis/api_cuda.h:
