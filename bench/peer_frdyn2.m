% bench/peer_frdyn2.m: peer for examples/frdyn2_bench.jnt with Octave ode15s.
%
% The virtual friction test bench of seed 002 (Rill & Schuderer 2023,
% Listings A1-A4): a block m on a plate pushed by F = step3(t, 0, tE, 0,
% ratio Fs), FrDyn2 friction with states z, zd:
%   F0 = sigma0 z + sigma1 v,  dv = sign(F0) v_s (1 - sqrt(max(1 - |F0|/(mu_s N), 0)))
%   vr = v - zd + dv,  F_R = sign(vr) mu(|vr|) N    (parabola, cubic, mu_d)
%   z' = zd,  zd' = (F_R - sigma0 z - sigma1 zd) 4 sigma0 / sigma1^2
%   u' = v,   v'  = (F - F_R) / m
% over 0..1.75 tE + 10 ms (the model's t_end), RelTol 1e-6, AbsTol 1e-9 (the
% paper's ode15s settings), with the analytic Jacobian and the output grid
% 0:dt_out:t_end (as the jnt model's CSV). Only the ode15s call is timed
% (tic/toc), repeated `repeat` times.
%
%   octave-cli --no-gui -q bench/peer_frdyn2.m [repeat [tE,tE,...]]
% prints one line per step duration tE:
%   peer=octave case=frdyn2 tE=.. method=ode15s time_s_min=.. time_s_med=..
%   rows=.. u_end=.. FR_end=..
1;

function p = frdyn2_params(ratio, tE)
  p.m = 1; p.g = 9.81;
  p.mus = 0.6; p.vs = 1e-3; p.mud = 0.3; p.vd = 1e-2;
  p.s0 = 5e6; p.s1 = 3192.75;
  p.N = p.m * p.g; p.Fs = p.mus * p.N; p.kb = 4 * p.s0 / p.s1^2;
  p.Fa = ratio * p.Fs; p.tE = tE;
end

% Listing A3: cubic step from f0 at x0 to f1 at x1, constant outside.
function f = step3(x, x0, x1, f0, f1)
  if x <= x0
    f = f0;
  elseif x >= x1
    f = f1;
  else
    xi = (x - x0) / (x1 - x0);
    f = f0 + (f1 - f0) * xi^2 * (3 - 2 * xi);
  end
end

% Listing A4: friction force F_R, dF_R/dvr and d(dv)/dF0.
function [FR, dFR, ddv] = frdyn2(v, z, zd, p)
  F0 = p.s0 * z + p.s1 * v;
  dis = max(1 - abs(F0) / p.Fs, 0);
  sq = sqrt(dis);
  vr = v - zd + sign(F0) * p.vs * (1 - sq);
  va = abs(vr);
  if va <= p.vs
    x1 = va / p.vs;
    mu = x1 * (2 - x1) * p.mus;
    dmu = (2 - 2 * x1) * p.mus / p.vs;
  elseif va < p.vd
    x2 = (va - p.vs) / (p.vd - p.vs);
    mu = p.mud + (p.mus - p.mud) * (1 - x2^2 * (3 - 2 * x2));
    dmu = (p.mus - p.mud) * (-6 * x2 + 6 * x2^2) / (p.vd - p.vs);
  else
    mu = p.mud; dmu = 0;
  end
  FR = sign(vr) * mu * p.N;
  dFR = p.N * dmu;
  if dis > 0
    ddv = p.vs / (2 * p.Fs * sq);
  else
    ddv = 0;
  end
end

function dy = bench_rhs(t, y, p)
  FR = frdyn2(y(2), y(3), y(4), p);
  F = step3(t, 0, p.tE, 0, p.Fa);
  dy = [y(2); (F - FR) / p.m; y(4); (FR - p.s0 * y(3) - p.s1 * y(4)) * p.kb];
end

function J = bench_jac(t, y, p)
  [FR, dFR, ddv] = frdyn2(y(2), y(3), y(4), p);
  r_v = dFR * (1 + ddv * p.s1); r_z = dFR * ddv * p.s0; r_zd = -dFR;
  J = [0, 1, 0, 0;
       0, -r_v / p.m, -r_z / p.m, -r_zd / p.m;
       0, 0, 0, 1;
       0, p.kb * r_v, p.kb * (r_z - p.s0), p.kb * (r_zd - p.s1)];
end

args = argv();
repeat = 3; tEs = [0.1, 0.01, 0.001, 0.0001]; dt_out = 1e-5;
if numel(args) >= 1, repeat = str2double(args{1}); end
if numel(args) >= 2, tEs = str2double(strsplit(args{2}, ',')); end
for tE = tEs
  p = frdyn2_params(0.95, tE);
  t_end = 1.75 * tE + 10e-3;
  tspan = min((0:floor(t_end / dt_out + 1e-9)) * dt_out, t_end);
  if tspan(end) < t_end * (1 - 1e-12), tspan(end + 1) = t_end; end
  opts = odeset('RelTol', 1e-6, 'AbsTol', 1e-9, 'Jacobian', @(t, y) bench_jac(t, y, p));
  times = zeros(1, repeat);
  for k = 1:repeat
    tic;
    [t, y] = ode15s(@(t, y) bench_rhs(t, y, p), tspan, [0; 0; 0; 0], opts);
    times(k) = toc;
  end
  printf('peer=octave case=frdyn2 tE=%g method=ode15s jac=analytic time_s_min=%.6g time_s_med=%.6g rows=%d u_end=%.12g FR_end=%.12g\n', ...
         tE, min(times), median(times), numel(t), y(end, 1), frdyn2(y(end, 2), y(end, 3), y(end, 4), p));
end
