build-x/obj/src/codeobj/err.o: src/codeobj/err.c src/codeobj/codeobj.h
src/codeobj/codeobj.h:
