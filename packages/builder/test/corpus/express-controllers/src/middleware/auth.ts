import type { NextFunction, Request, Response } from 'express';

export function protect(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.authorization) {
    res.status(401).json({ message: 'Not authorized' });
    return;
  }
  next();
}

export function admin(req: Request, res: Response, next: NextFunction) {
  if (req.headers['x-role'] !== 'admin') {
    res.status(403).json({ message: 'Admins only' });
    return;
  }
  next();
}
