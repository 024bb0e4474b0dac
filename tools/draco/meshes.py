"""Small synthetic meshes for make_ref.sh, written as .obj in the current folder:
a torus (genus 1: topology splits), a wavy plane with holes, a lat-long sphere
(degenerate poles), a cube; with normals and texture coordinates (seams)."""
import math,sys
def write(name,V,N,T,F):
    with open(name,'w') as f:
        for v in V: f.write("v %.6f %.6f %.6f\n"%v)
        if T:
            for t in T: f.write("vt %.6f %.6f\n"%t)
        if N:
            for n in N: f.write("vn %.6f %.6f %.6f\n"%n)
        for tri in F:
            if T and N: f.write("f "+" ".join("%d/%d/%d"%(i+1,j+1,k+1) for (i,j,k) in tri)+"\n")
            elif N: f.write("f "+" ".join("%d//%d"%(i+1,k+1) for (i,j,k) in tri)+"\n")
            else: f.write("f "+" ".join("%d"%(i+1) for (i,j,k) in tri)+"\n")
def grid(nu,nv,fn,wrapu,wrapv,uvseam=True):
    V=[];N=[];T=[];F=[]
    cu=nu if wrapu else nu+1; cv=nv if wrapv else nv+1
    for j in range(cv):
        for i in range(cu):
            p,n=fn(i/nu,j/nv); V.append(p); N.append(n)
    for j in range(nv+1):
        for i in range(nu+1): T.append((i/nu,j/nv))
    def vi(i,j): return (j%cv)*cu+(i%cu)
    def ti(i,j): return j*(nu+1)+i
    for j in range(nv):
        for i in range(nu):
            a=(vi(i,j),ti(i,j),vi(i,j));b=(vi(i+1,j),ti(i+1,j),vi(i+1,j));c=(vi(i+1,j+1),ti(i+1,j+1),vi(i+1,j+1));d=(vi(i,j+1),ti(i,j+1),vi(i,j+1))
            F.append((a,b,c));F.append((a,c,d))
    return V,N,T,F
def torus(u,v):
    R,r=1.0,0.35;a=2*math.pi*u;b=2*math.pi*v
    p=((R+r*math.cos(b))*math.cos(a),(R+r*math.cos(b))*math.sin(a),r*math.sin(b))
    n=(math.cos(b)*math.cos(a),math.cos(b)*math.sin(a),math.sin(b)); return p,n
def wave(u,v):
    x=u*2-1;y=v*2-1;z=0.2*math.sin(3*x)*math.cos(2*y)
    return (x,y,z),(0,0,1)
V,N,T,F=grid(8,8,wave,False,False); write("wave.obj",V,N,T,F)
# wave with holes: drop some faces
F2=[f for k,f in enumerate(F) if not (k%37==5 or k%53==7)]
write("holes.obj",V,None,T,F2)
V,N,T,F=grid(10,6,torus,True,True); write("torus_small.obj",V,N,None,F)

open("cube.obj","w").write("""v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1
f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n""")
n=16
SV=[];SF=[]
for j in range(n+1):
    for i in range(n):
        a=2*math.pi*i/n;b=math.pi*j/n
        SV.append((math.sin(b)*math.cos(a),math.sin(b)*math.sin(a),math.cos(b)))
for j in range(n):
    for i in range(n):
        a=j*n+i;b=j*n+(i+1)%n;c=(j+1)*n+(i+1)%n;d=(j+1)*n+i
        SF.append((a,b,c));SF.append((a,c,d))
open("sphere.obj","w").write("".join("v %.6f %.6f %.6f\n"%v for v in SV)+"".join("f %d %d %d\n"%(a+1,b+1,c+1) for a,b,c in SF))

# The bench's torus: 200 x 200 quads, normals and texture coordinates.
n=200
BV=[];BN=[];BT=[];BF=[]
for j in range(n+1):
    for i in range(n+1):
        u=i/n; v=j/n; a=2*math.pi*u; b=2*math.pi*v; R,r=1.0,0.4
        BV.append(((R+r*math.cos(b))*math.cos(a),(R+r*math.cos(b))*math.sin(a),r*math.sin(b)+0.05*math.sin(7*a)))
        BN.append((math.cos(b)*math.cos(a),math.cos(b)*math.sin(a),math.sin(b))); BT.append((u,v))
for j in range(n):
    for i in range(n):
        a=j*(n+1)+i;b=a+1;c=a+n+2;d=a+n+1
        BF.append((a,b,c));BF.append((a,c,d))
with open("bench_torus200.obj","w") as f:
    for p in BV: f.write("v %.6f %.6f %.6f\n"%p)
    for t in BT: f.write("vt %.6f %.6f\n"%t)
    for q in BN: f.write("vn %.6f %.6f %.6f\n"%q)
    for a,b,c in BF: f.write("f %d/%d/%d %d/%d/%d %d/%d/%d\n"%(a+1,a+1,a+1,b+1,b+1,b+1,c+1,c+1,c+1))
