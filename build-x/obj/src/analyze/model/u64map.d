build-x/obj/src/analyze/model/u64map.o: src/analyze/model/u64map.c \
 src/analyze/model/u64map.h
src/analyze/model/u64map.h:
