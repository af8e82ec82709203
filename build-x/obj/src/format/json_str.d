build-x/obj/src/format/json_str.o: src/format/json_str.c \
 src/format/json_str.h
src/format/json_str.h:
