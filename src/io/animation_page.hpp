// The HTML/JavaScript template of the animation page: plain canvas 2D, no libraries,
// no network. The C++ side substitutes __TITLE__, __NOTE__ and __DATA__.
#pragma once

namespace articula::animation_page {

inline constexpr const char* kTemplate = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__ - Articula</title>
<style>
body{margin:0;font:14px system-ui,sans-serif;background:#1d2126;color:#e8e8e8;display:flex;flex-direction:column;height:100vh}
header{padding:6px 12px;display:flex;gap:12px;align-items:center;flex-wrap:wrap;background:#272c33}
header h1{font-size:16px;margin:0 12px 0 0}
#note{background:#a33;color:#fff;padding:6px 12px;display:none}
canvas{flex:1;width:100%;min-height:0;cursor:grab}
input[type=range]{width:320px}
button,select{background:#3a414b;color:#eee;border:1px solid #555;border-radius:4px;padding:3px 10px}
</style></head><body>
<header><h1>__TITLE__</h1>
<button id="play">Play</button>
<input id="slider" type="range" min="0" value="0" step="1">
<span id="time">t = 0.000 s</span>
<label>speed <select id="speed"><option>0.1</option><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option><option>4</option></select></label>
<label><input id="loop" type="checkbox" checked> loop</label>
<label><input id="traces" type="checkbox" checked> marker traces</label>
<button id="fit">Fit</button>
<span style="opacity:.6">drag: orbit, shift/right-drag: pan, wheel: zoom, space: play</span>
</header>
<div id="note">__NOTE__</div>
<canvas id="view"></canvas>
<script>
"use strict";
const D = __DATA__;
const nb = D.bodies.length, nf = D.times.length;
const canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
if (D.note) { const n = document.getElementById('note'); n.style.display = 'block'; }
// --- small vector helpers
const sub=(a,b)=>[a[0]-b[0],a[1]-b[1],a[2]-b[2]], add=(a,b)=>[a[0]+b[0],a[1]+b[1],a[2]+b[2]];
const mul=(a,s)=>[a[0]*s,a[1]*s,a[2]*s], dotv=(a,b)=>a[0]*b[0]+a[1]*b[1]+a[2]*b[2];
const cross=(a,b)=>[a[1]*b[2]-a[2]*b[1],a[2]*b[0]-a[0]*b[2],a[0]*b[1]-a[1]*b[0]];
const norm=a=>Math.hypot(a[0],a[1],a[2]), unit=a=>mul(a,1/(norm(a)||1));
function qrot(q,v){ // rotate v by unit quaternion q = [x,y,z,w]
  const u=[q[0],q[1],q[2]], w=q[3], t=mul(cross(u,v),2);
  return add(add(v,mul(t,w)),cross(u,t));
}
function pose(f,b){ const o=(f*nb+b)*7, p=D.poses; return {p:[p[o],p[o+1],p[o+2]], q:[p[o+3],p[o+4],p[o+5],p[o+6]]}; }
function toWorld(ps,v){ return add(ps.p,qrot(ps.q,v)); }
// --- shape meshes in body coordinates: lists of polygons (arrays of points)
function matApply(m,v){ return [m[0]*v[0]+m[1]*v[1]+m[2]*v[2], m[3]*v[0]+m[4]*v[1]+m[5]*v[2], m[6]*v[0]+m[7]*v[1]+m[8]*v[2]]; }
function boxFaces(s){ const h=mul(s,0.5), c=[];
  for(let i=0;i<8;i++) c.push([(i&1?1:-1)*h[0],(i&2?1:-1)*h[1],(i&4?1:-1)*h[2]]);
  return [[0,1,3,2],[4,6,7,5],[0,4,5,1],[2,3,7,6],[0,2,6,4],[1,5,7,3]].map(f=>f.map(i=>c[i])); }
function prismFaces(r,l,n,caps){ const f=[], ring=z=>Array.from({length:n},(_,k)=>[r*Math.cos(2*Math.PI*k/n),r*Math.sin(2*Math.PI*k/n),z]);
  const a=ring(-l/2), b=ring(l/2);
  for(let k=0;k<n;k++){ const j=(k+1)%n; f.push([a[k],a[j],b[j],b[k]]); }
  if(caps){ f.push(a.slice().reverse()); f.push(b); } return f; }
function sphereFaces(r,c){ const f=[], n=8, m=12;
  for(let i=0;i<n;i++) for(let j=0;j<m;j++){
    const p=(a,b)=>{const th=Math.PI*a/n, ph=2*Math.PI*b/m; return [c[0]+r*Math.sin(th)*Math.cos(ph),c[1]+r*Math.sin(th)*Math.sin(ph),c[2]+r*Math.cos(th)];};
    f.push([p(i,j),p(i+1,j),p(i+1,j+1),p(i,j+1)]); } return f; }
const meshes = D.bodies.map(b => {
  const s=b.shape; let faces;
  if(!s) faces=sphereFaces(0.03,b.com);
  else { if(s.type==='box') faces=boxFaces(s.size);
    else if(s.type==='cylinder') faces=prismFaces(s.radius,s.length,16,true);
    else if(s.type==='capsule') faces=prismFaces(s.radius,s.length,16,false).concat(sphereFaces(s.radius,[0,0,-s.length/2]),sphereFaces(s.radius,[0,0,s.length/2]));
    else faces=sphereFaces(s.radius,[0,0,0]);
    faces=faces.map(f=>f.map(v=>add(matApply(s.rot,v),s.xyz))); }
  return {faces, color: (s&&s.color)||['#4f8fd8','#e0873a','#59b36b','#c95a8f','#d6c04a','#7a6fd0'][b.index%6]};
});
// --- camera: orbit about a target
const up = unit(mul(D.gravity,-1).some(x=>x)?mul(D.gravity,-1):[0,1,0]);
const cam = {target:[0,0,0], dist:3, yaw:-0.35, pitch:0.3};
function basis(){ // right, upv, forward (from eye to target)
  const ref = Math.abs(up[2])<0.9?[0,0,1]:[1,0,0];
  const e1=unit(cross(up,ref)), e2=cross(e1,up); // e1,e2 span the ground plane; e2 = +z for y-up
  const dir=add(add(mul(e2,Math.cos(cam.pitch)*Math.cos(cam.yaw)),mul(e1,Math.cos(cam.pitch)*Math.sin(cam.yaw))),mul(up,Math.sin(cam.pitch)));
  const fwd=mul(dir,-1), right=unit(cross(fwd,up)), upv=cross(right,fwd);
  return {eye:add(cam.target,mul(dir,cam.dist)), fwd, right, upv};
}
function fit(){ let lo=[1e9,1e9,1e9], hi=[-1e9,-1e9,-1e9];
  const step=Math.max(1,Math.floor(nf/200));
  for(let f=0;f<nf;f+=step) for(let b=0;b<nb;b++){ const p=pose(f,b).p; for(let k=0;k<3;k++){lo[k]=Math.min(lo[k],p[k]);hi[k]=Math.max(hi[k],p[k]);} }
  for(let k=0;k<3;k++){lo[k]=Math.min(lo[k],0);hi[k]=Math.max(hi[k],0);}
  cam.target=mul(add(lo,hi),0.5); cam.dist=Math.max(1.0,1.5*norm(sub(hi,lo))); }
function project(B,p,W,H){ const d=sub(p,B.eye), z=dotv(d,B.fwd); if(z<1e-3) return null;
  const s=0.9*H/z; return [W/2+s*dotv(d,B.right), H/2-s*dotv(d,B.upv), z]; }
function shade(hex,k){ const n=parseInt(hex.slice(1),16), c=[n>>16,(n>>8)&255,n&255].map(x=>Math.round(x*k));
  return 'rgb('+c.join(',')+')'; }
let frame=0, playing=false, last=null, simTime=D.times[0]||0;
function draw(){
  const W=canvas.width=canvas.clientWidth*devicePixelRatio, H=canvas.height=canvas.clientHeight*devicePixelRatio;
  ctx.fillStyle='#1d2126'; ctx.fillRect(0,0,W,H);
  const B=basis(); const light=unit(add(add(mul(up,1.0),mul(B.right,-0.4)),mul(B.fwd,-0.6)));
  // ground grid around the origin
  const ref=Math.abs(up[2])<0.9?[0,0,1]:[1,0,0], g1=unit(cross(up,ref)), g2=cross(g1,up);
  const ext=Math.max(1,Math.ceil(cam.dist)), stepg=ext>8?1:0.25*Math.ceil(ext/2);
  ctx.lineWidth=1*devicePixelRatio; ctx.strokeStyle='#3a4049';
  for(let k=-ext;k<=ext+1e-9;k+=stepg){ for(const [a,b] of [[g1,g2],[g2,g1]]){
    const p=project(B,add(mul(a,k),mul(b,-ext)),W,H), q=project(B,add(mul(a,k),mul(b,ext)),W,H);
    if(p&&q){ctx.beginPath();ctx.moveTo(p[0],p[1]);ctx.lineTo(q[0],q[1]);ctx.stroke();} } }
  // world axes
  [[1,0,0,'#d55'],[0,1,0,'#5c5'],[0,0,1,'#58e']].forEach(a=>{const o=project(B,[0,0,0],W,H), e=project(B,mul(a,0.3*Math.min(ext,3)).slice(0,3),W,H);
    if(o&&e){ctx.strokeStyle=a[3];ctx.lineWidth=2*devicePixelRatio;ctx.beginPath();ctx.moveTo(o[0],o[1]);ctx.lineTo(e[0],e[1]);ctx.stroke();}});
  // marker traces
  if(document.getElementById('traces').checked) D.markers.forEach((m,mi)=>{
    ctx.strokeStyle='#ffd35a'; ctx.lineWidth=1.5*devicePixelRatio; ctx.beginPath(); let started=false;
    const stride=Math.max(1,Math.floor(nf/1500));
    for(let f=0;f<=frame;f+=stride){ const p=project(B,toWorld(pose(f,m.body),m.pos),W,H); if(!p) continue;
      if(!started){ctx.moveTo(p[0],p[1]);started=true;} else ctx.lineTo(p[0],p[1]); }
    ctx.stroke(); });
  // bodies: painter's algorithm over all faces
  const polys=[];
  for(let b=0;b<nb;b++){ const ps=pose(frame,b), m=meshes[b];
    for(const f of m.faces){ const w=f.map(v=>toWorld(ps,v)); const n=unit(cross(sub(w[1],w[0]),sub(w[2],w[0])));
      const c=mul(w.reduce((a,v)=>add(a,v),[0,0,0]),1/w.length);
      if(dotv(n,sub(B.eye,c))<0) continue; // back face
      const pr=w.map(v=>project(B,v,W,H)); if(pr.some(p=>!p)) continue;
      polys.push({pr, z:dotv(sub(c,B.eye),B.fwd), col:shade(m.color,0.35+0.65*Math.max(0,dotv(n,light)))}); } }
  polys.sort((a,b)=>b.z-a.z);
  for(const p of polys){ ctx.fillStyle=p.col; ctx.strokeStyle=p.col; ctx.beginPath(); ctx.moveTo(p.pr[0][0],p.pr[0][1]);
    for(let k=1;k<p.pr.length;k++) ctx.lineTo(p.pr[k][0],p.pr[k][1]); ctx.closePath(); ctx.fill(); ctx.stroke(); }
  document.getElementById('time').textContent='t = '+(D.times[frame]||0).toFixed(3)+' s';
  document.getElementById('slider').value=frame;
  document.body.dataset.ready='1';
}
function setFrame(f){ frame=Math.max(0,Math.min(nf-1,f)); simTime=D.times[frame]; draw(); }
function tick(ts){ if(!playing){last=null;return;}
  if(last!==null){ simTime+=(ts-last)/1000*parseFloat(document.getElementById('speed').value);
    if(simTime>D.times[nf-1]){ if(document.getElementById('loop').checked) simTime=D.times[0]; else {simTime=D.times[nf-1]; pause();} }
    let f=frame; if(D.times[f]>simTime) f=0; while(f<nf-1&&D.times[f+1]<=simTime) f++; frame=f; draw(); }
  last=ts; requestAnimationFrame(tick); }
function play(){ if(playing||nf<2) return; playing=true; document.getElementById('play').textContent='Pause'; requestAnimationFrame(tick); }
function pause(){ playing=false; document.getElementById('play').textContent='Play'; }
document.getElementById('play').onclick=()=>playing?pause():play();
document.getElementById('fit').onclick=()=>{fit();draw();};
document.getElementById('traces').onchange=draw;
const slider=document.getElementById('slider'); slider.max=Math.max(0,nf-1); slider.oninput=()=>setFrame(parseInt(slider.value));
window.addEventListener('keydown',e=>{ if(e.code==='Space'){ e.preventDefault(); playing?pause():play(); } });
let drag=null;
canvas.addEventListener('contextmenu',e=>e.preventDefault());
canvas.addEventListener('mousedown',e=>{drag={x:e.clientX,y:e.clientY,pan:e.shiftKey||e.button===2};});
window.addEventListener('mouseup',()=>drag=null);
window.addEventListener('mousemove',e=>{ if(!drag) return; const dx=e.clientX-drag.x, dy=e.clientY-drag.y; drag.x=e.clientX; drag.y=e.clientY;
  if(drag.pan){ const B=basis(), s=cam.dist/canvas.clientHeight; cam.target=add(cam.target,add(mul(B.right,-dx*s),mul(B.upv,dy*s))); }
  else { cam.yaw-=dx*0.01; cam.pitch=Math.max(-1.5,Math.min(1.5,cam.pitch+dy*0.01)); } draw(); });
canvas.addEventListener('wheel',e=>{e.preventDefault(); cam.dist*=Math.exp(e.deltaY*0.001); draw();},{passive:false});
window.addEventListener('resize',draw);
window.articula={frameCount:nf, currentFrame:()=>frame, play, pause, isPlaying:()=>playing};
fit(); draw();
</script></body></html>
)HTML";

}  // namespace articula::animation_page
