const mongoose = require('mongoose');

module.exports = mongoose.model('Team', new mongoose.Schema({ name: String, owner: mongoose.Types.ObjectId, members: [{ user: mongoose.Types.ObjectId, role: String }] }));
