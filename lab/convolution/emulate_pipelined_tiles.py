#!/usr/bin/env python3
# A CPU emulation of pipelined_tiles' index arithmetic
# (src/families/convolution/pipelined_tiles.cuh): the three copy paths
# (interior 16-byte chunks without tests, border chunks with partial
# right-edge copies, 4-byte copies), the extra chunks 32-33 of each row, the
# float4 window reads and OFF, and both store paths, thread by thread for
# every tile, against the definition. It asserts that every global read is
# inside the image's allocation, every shared read hits a written element
# and the pitch padding is never written. It does not model the barriers or
# the double buffering (those are checked by compute-sanitizer racecheck on
# the GPU). Run: python3 lab/convolution/emulate_pipelined_tiles.py (~1 min).
import numpy as np
BX,BY,CX,CY=32,8,4,8; TW,TH=BX*CX,BY*CY; PAD=4; SW=PAD+TW+PAD; CPR=SW//4; EXTRA=CPR-BX; THREADS=BX*BY
def run(img, w, h, pitch, mask, M, vec_in, vec_out):
    flat=img  # 1D array of length (h-1)*pitch+w
    out=np.full(len(flat), np.nan, dtype=np.float64)
    tiles_x=(w+TW-1)//TW; tiles_y=(h+TH-1)//TH
    RY=M//2; RX=M//2; SH=TH+M-1
    FIRST=(PAD-RX)//4; LAST=(PAD+3+RX)//4; NV=LAST-FIRST+1; OFF=PAD-RX-4*FIRST
    for t in range(tiles_x*tiles_y):
        tx,ty=t%tiles_x,t//tiles_x
        buf=np.full(SW*SH, np.nan)
        written=np.zeros(SW*SH,bool)
        x0=tx*TW-PAD; y0=ty*TH-RY
        def put(dst, vals):
            assert 0<=dst and dst+len(vals)<=SW*SH, "smem oob"
            buf[dst:dst+len(vals)]=vals; written[dst:dst+len(vals)]=True
        def gread(off,n):
            assert off>=0 and off+n<=len(flat), ("global oob",off,n)
            return flat[off:off+n]
        for warp in range(BY):
            for lane in range(BX):
                tid=warp*BX+lane; er=tid//EXTRA; ec=BX+tid%EXTRA; has_extra=tid<EXTRA*SH
                if vec_in:
                    interior = x0>=0 and x0+SW<=w and y0>=0 and y0+SH<=h
                    if interior:
                        steps=(SH+BY-1)//BY
                        for i in range(steps):
                            r=warp+BY*i
                            if SH%BY==0 or i+1<steps or r<SH:
                                src=(y0+warp+BY*i)*pitch+x0+4*lane
                                assert src%4==0
                                put((warp*SW+4*lane)+i*BY*SW, gread(src,4))
                        if has_extra:
                            src=(y0+er)*pitch+x0+4*ec; assert src%4==0
                            put(er*SW+4*ec, gread(src,4))
                    else:
                        def chunk(r,c):
                            y=y0+r; x=x0+4*c; left=w-x
                            n=min(left,4) if (0<=y<h and x>=0 and left>0) else 0
                            vals=np.zeros(4)
                            if n>0:
                                src=y*pitch+x; assert src%4==0
                                vals[:n]=gread(src,n)
                            put(r*SW+4*c, vals)
                        for r in range(warp,SH,BY): chunk(r,lane)
                        if has_extra: chunk(er,ec)
                else:
                    for r in range(warp,SH,BY):
                        y=y0+r; row_in=0<=y<h
                        for c in range(lane,SW,BX):
                            x=x0+c; inside=row_in and 0<=x<w
                            put(r*SW+c, gread(y*pitch+x,1) if inside else np.zeros(1))
        # compute
        for warp in range(BY):
            for lane in range(BX):
                base=warp*CY*SW+4*(lane+FIRST)
                acc=np.zeros((CY,CX))
                for iy in range(CY+M-1):
                    v=[]
                    for k in range(NV):
                        a=base+iy*SW+4*k
                        assert a%4==0 and a+4<=SW*SH and written[a:a+4].all(), "uninit/oob smem read"
                        v+=list(buf[a:a+4])
                    for o in range(CY):
                        ky=iy-o
                        if 0<=ky<M:
                            for kx in range(M):
                                for c in range(CX):
                                    acc[o,c]+=mask[ky*M+kx]*v[OFF+kx+c]
                x=tx*TW+CX*lane; yf=ty*TH+CY*warp
                if vec_out and x+CX<=w and yf+CY<=h:
                    for o in range(CY):
                        d=(yf+o)*pitch+x; assert d%4==0 and d+4<=len(out)
                        out[d:d+4]=acc[o]
                else:
                    for o in range(CY):
                        if yf+o<h:
                            for c in range(CX):
                                if x+c<w: out[(yf+o)*pitch+x+c]=acc[o,c]
    return out
def ref(img,w,h,pitch,mask,M):
    r=M//2; out=np.full(len(img),np.nan)
    a=np.zeros((h+2*r,w+2*r))
    for y in range(h): a[y+r,r:r+w]=img[y*pitch:y*pitch+w]
    for y in range(h):
        for x in range(w):
            out[y*pitch+x]=(a[y:y+M,x:x+M].ravel()*mask).sum()
    return out
rng=np.random.default_rng(1)
cases=[(300,150,9,0),(390,200,5,2),(389,201,9,3),(391,70,7,1),(130,65,3,2),(1,70,1,0),(140,1,1,0),(9,9,9,0),(5,5,5,3),(262,200,9,2)]
for (w,h,M,pad) in cases:
    pitch=w+pad; n=(h-1)*pitch+w
    img=rng.uniform(-1,1,n); mask=rng.uniform(-1,1,M*M)
    R=ref(img,w,h,pitch,mask,M)
    for vec_in in ([True,False] if pitch%4==0 else [False]):
        vec_out=pitch%4==0
        O=run(img,w,h,pitch,mask,M,vec_in,vec_out)
        idx=[y*pitch+x for y in range(h) for x in range(w)]
        err=np.abs(O[idx]-R[idx]).max()
        pad_ok=all(np.isnan(O[y*pitch+x]) for y in range(h-1) for x in range(w,pitch))
        assert err < 1e-12 and pad_ok, (w, h, M, pad, vec_in)
        print(w,h,M,pad,'vec_in',vec_in,'maxerr',err,'padding untouched',pad_ok, flush=True)
